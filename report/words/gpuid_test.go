package words

import "testing"

func TestShortGPUID(t *testing.T) {
	tests := []struct{ id, want string }{
		{"GPU-5a6b7c8d-1111-2222-3333-444455556666", "GPU 5a6b7c8d"},
		{"MIG-1b2c3d4e-aaaa-bbbb-cccc-ddddeeeeffff", "GPU 1b2c3d4e"},
		{"5a6b7c8d11112222", "GPU 5a6b7c8d11112222"},
		{"00000000:01:00.0", "GPU at bus 00000000:01:00.0"},
	}
	for _, tc := range tests {
		if got := ShortGPUID(tc.id); got != tc.want {
			t.Errorf("ShortGPUID(%q) = %q, want %q", tc.id, got, tc.want)
		}
	}
}
