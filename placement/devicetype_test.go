package placement

import "testing"

// TestDeviceKeyType: a device's name carries its type, CUDA being the zero
// value; keys that differ only in type are two devices; a type reads back
// from its name, "cuda" and "" both CUDA.
func TestDeviceKeyType(t *testing.T) {
	for _, tt := range []struct {
		k    DeviceKey
		want string
	}{
		{DeviceKey{Rank: -1, Device: 0}, "cuda:0"},
		{DeviceKey{Rank: -1, Device: 0, Type: "xpu"}, "xpu:0"},
		{DeviceKey{Rank: 2, Device: 1, Type: "npu"}, "rank 2 · npu:1"},
		{DeviceKey{Rank: -1, Device: 0, Type: "mps"}, "mps"},
		{DeviceKey{Rank: -1, Device: 3, MIG: "GI 7"}, "cuda:3 · MIG GI 7"},
		{DeviceKey{Rank: 1, Host: true}, "rank 1 · pinned host"},
	} {
		if got := tt.k.Name(); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.k, got, tt.want)
		}
		if back := ParseDeviceType(tt.k.Type.String()); back != tt.k.Type {
			t.Errorf("%+v: type %q reads back as %q", tt.k, tt.k.Type.String(), back)
		}
	}
	if ParseDeviceType("") != CUDA || ParseDeviceType("cuda") != CUDA {
		t.Error(`"" and "cuda" must read as CUDA`)
	}
	seen := map[DeviceKey]bool{{Rank: -1, Device: 0}: true}
	if seen[DeviceKey{Rank: -1, Device: 0, Type: "xpu"}] {
		t.Error("xpu:0 is the key of cuda:0")
	}
}
