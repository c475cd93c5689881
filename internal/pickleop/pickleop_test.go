package pickleop

import "testing"

func TestNames(t *testing.T) {
	tests := []struct {
		op    byte
		name  string
		class bool
	}{
		{Global, "GLOBAL (0x63)", true},
		{StackGlobal, "STACK_GLOBAL (0x93)", true},
		{Reduce, "REDUCE (0x52)", true},
		{BinGet, "BINGET (0x68)", false},
		{ShortBinUnicode, "SHORT_BINUNICODE (0x8c)", false},
		{ReadOnlyBuffer, "READONLY_BUFFER (0x98)", false},
		{0xff, "0xff", false},
	}
	for _, tt := range tests {
		if got := Name(tt.op); got != tt.name {
			t.Errorf("Name(0x%02x) = %q, want %q", tt.op, got, tt.name)
		}
		if got := IsClass(tt.op); got != tt.class {
			t.Errorf("IsClass(0x%02x) = %v", tt.op, got)
		}
		if _, ok := Lookup(tt.op); ok != (tt.op != 0xff) {
			t.Errorf("Lookup(0x%02x) known = %v", tt.op, ok)
		}
	}
}
