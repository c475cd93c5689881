package placement

import (
	"path"
	"slices"
	"strings"

	"gpureport/ingest"
)

// The capture kit writes a manifest per rank (ingest.CaptureManifest)
// that names the GPU UUID of the rank's CUDA device: the GPU join's first
// rule, before any evidence from readings. A manifest in a rank folder
// that placement renumbered (ranks.go) speaks for that folder's new rank.

// DeviceUUID is a GPU UUID a capture manifest gives one rank's CUDA
// device: the mapping the GPU-log join uses before any other rule.
type DeviceUUID struct {
	// Rank and Device are the rank and its CUDA device index.
	Rank, Device int
	// UUID is the GPU's UUID as the manifest spells it (nvidia-smi's
	// GPU-... form).
	UUID string
	// Source is the manifest's path.
	Source string
}

// captureUUIDs is the device-to-GPU mapping the manifests give, ordered by
// rank and device, and notes for the ranks whose manifests disagree (two
// manifests of one rank and device naming different GPUs: neither is
// used). dirRanks renumbers a manifest in a rank folder as placement
// numbered that folder's snapshots (separateRanks).
func captureUUIDs(ms []*ingest.CaptureManifest, dirRanks map[string]int) ([]DeviceUUID, []Note) {
	type key struct{ rank, device int }
	byKey := map[key][]DeviceUUID{}
	var keys []key
	for _, m := range ms {
		if m.Device == nil || m.Device.UUID == "" {
			continue
		}
		rank := manifestRank(m, dirRanks)
		k := key{rank, m.Device.Index}
		if _, seen := byKey[k]; !seen {
			keys = append(keys, k)
		}
		byKey[k] = append(byKey[k], DeviceUUID{Rank: rank, Device: m.Device.Index, UUID: m.Device.UUID, Source: m.Path})
	}
	slices.SortFunc(keys, func(a, b key) int {
		if a.rank != b.rank {
			return a.rank - b.rank
		}
		return a.device - b.device
	})
	var out []DeviceUUID
	var notes []Note
	for _, k := range keys {
		us := byKey[k]
		agree := true
		for _, u := range us[1:] {
			agree = agree && strings.EqualFold(u.UUID, us[0].UUID)
		}
		if !agree {
			notes = append(notes, Note{Kind: NoteManifestsDisagree, Manifests: &ManifestClash{Rank: k.rank, Device: k.device,
				Paths: [2]string{us[0].Source, us[1].Source}, UUIDs: [2]string{us[0].UUID, us[1].UUID}}})
			continue
		}
		out = append(out, us[0])
	}
	return out, notes
}

// manifestRank is the rank manifest m speaks for: the rank of the rank
// folder it lies in, as placement renumbered it (dirRanks), else its own.
func manifestRank(m *ingest.CaptureManifest, dirRanks map[string]int) int {
	for d := path.Dir(m.Path); d != "." && d != "/"; d = path.Dir(d) {
		if r, ok := dirRanks[d]; ok {
			return r
		}
	}
	return m.Rank
}

// DeviceMemory is the memory a capture manifest gives one rank's CUDA
// device (torch.cuda.get_device_properties(d).total_memory): its capacity
// when no GPU log reads the GPU.
type DeviceMemory struct {
	// Key is the rank and its CUDA device.
	Key DeviceKey
	// Total is the device's memory, bytes.
	Total int64
	// Source is the manifest's path.
	Source string
}

// captureMemory lists the device memory the manifests give, the first
// manifest in path order for each rank and device (the manifests of one
// device name one GPU, whose memory does not change).
func captureMemory(ms []*ingest.CaptureManifest, dirRanks map[string]int) []DeviceMemory {
	var out []DeviceMemory
	for _, m := range ms {
		if m.Device == nil || m.Device.TotalMemory <= 0 {
			continue
		}
		k := DeviceKey{Rank: manifestRank(m, dirRanks), Device: m.Device.Index}
		if !slices.ContainsFunc(out, func(d DeviceMemory) bool { return d.Key == k }) {
			out = append(out, DeviceMemory{Key: k, Total: m.Device.TotalMemory, Source: m.Path})
		}
	}
	return out
}

// ManifestMemory is the memory a capture manifest gives device k; false
// when none does.
func (r *Run) ManifestMemory(k DeviceKey) (DeviceMemory, bool) {
	// The manifests' keys are built from ranks alone: a key's pid or
	// separate run follows from its rank (placement numbered both).
	k.PID, k.Run = 0, ingest.ScriptRun{}
	i := slices.IndexFunc(r.deviceMemory, func(d DeviceMemory) bool { return d.Key == k })
	if i < 0 {
		return DeviceMemory{}, false
	}
	return r.deviceMemory[i], true
}
