package ingest_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"gpureport/ingest"
	"gpureport/ingest/ingesttest"
)

// Fuzz targets for every GPU log reader, seeded from the real files (cut
// to their first 4 KiB: larger seeds make the engine spend the run
// minimising them) and small inline logs. A reader must never panic, must
// return a log or an error, and the log must satisfy checkLogInvariants.
// CI runs each for a few seconds:
//
//	for f in FuzzQueryCSV FuzzDmon FuzzTable FuzzXML FuzzMemoryStats FuzzSniffLog; do
//		go test ./ingest -run='^$' -fuzz="^$f\$" -fuzztime=10s -fuzzminimizetime=5s || exit 1
//	done

// maxLogSeed bounds a seed taken from a real file, in bytes.
const maxLogSeed = 4 << 10

// realLogSeeds adds the real files under sub matching the patterns as seeds;
// it adds nothing when the real data is not present.
func realLogSeeds(f *testing.F, sub string, patterns ...string) {
	base := os.Getenv("GPUREPORT_REAL_DATA")
	if base == "" {
		base = filepath.Join(ingesttest.RepoRoot(f), "..", "shared", "testdata-real")
	}
	for _, pat := range patterns {
		files, _ := filepath.Glob(filepath.Join(base, sub, pat))
		for _, p := range files {
			b, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			if len(b) > maxLogSeed {
				b = b[:maxLogSeed]
			}
			f.Add(b)
		}
	}
}

func fuzzReader(f *testing.F, format ingest.LogFormat) {
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := ingest.ReadLog(bytes.NewReader(data), format, ingest.ReadOptions{
			Location: time.UTC, ModTime: time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)})
		if err != nil {
			if l != nil {
				t.Fatal("log and error both returned")
			}
			return
		}
		if l.Format != format {
			t.Fatalf("format %q, want %q", l.Format, format)
		}
		checkLogInvariants(t, l)
	})
}

func FuzzQueryCSV(f *testing.F) {
	realLogSeeds(f, "nvidia-smi", "query-gpu-csv/*", "query-compute-apps-csv/*", "mixed-hostile/*")
	f.Add([]byte("timestamp, index, uuid, memory.used [MiB], memory.total [MiB]\n2024/03/01 10:00:00.000, 0, GPU-a, 1 MiB, 2 MiB\n0, x\n"))
	f.Add([]byte("pid, process_name, used_gpu_memory [MiB]\n1, a,b,c, 5 MiB\n"))
	f.Add([]byte("# gpureport record\ntimestamp, index, memory.used [MiB]\n2025-08-01T15:47:06.123+02:00, 0, 1 MiB"))
	f.Add([]byte("timestamp, name, memory.used [MiB]\n2024/03/01 10:00:00.001, A, 1 MiB\n2024/03/01 10:00:00.002, A, 1 MiB\n2024/03/01 10:00:02.001, A, 1 MiB\n"))
	f.Add(utf16("index, memory.used [MiB]\r\n0, 1 MiB\r\n", false))
	fuzzReader(f, ingest.FormatQueryCSV)
}

func FuzzDmon(f *testing.F) {
	realLogSeeds(f, "nvidia-smi", "dmon/*")
	f.Add([]byte("#Date       Time        gpu    fb  bar1\n#YYYYMMDD   HH:MM:SS    Idx    MB    MB\n 20240301   10:00:00      0  1234     5\n"))
	f.Add([]byte("#Time gpu fb\n#HH:MM:SS Idx MB\n23:59:59 0 1\n00:00:01 0 2\n"))
	f.Add([]byte("# gpu pid type fb command\n# Idx # C/G MB name\n 0 12 C 40 python x\n 1 - - - -\n"))
	fuzzReader(f, ingest.FormatDmon)
}

func FuzzTable(f *testing.F) {
	realLogSeeds(f, "nvidia-smi", "table/*", "mixed-hostile/*")
	f.Add([]byte(tableH100))
	f.Add([]byte(tableMIG))
	f.Add([]byte(tableWindows + "index, name, memory.used [MiB]\n0, x, 1 MiB\n"))
	fuzzReader(f, ingest.FormatTable)
}

func FuzzXML(f *testing.F) {
	realLogSeeds(f, "nvidia-smi", "xml/*")
	f.Add([]byte(xmlDoc + xmlDoc))
	f.Add([]byte(xmlDoc[:400]))
	fuzzReader(f, ingest.FormatXML)
}

func FuzzMemoryStats(f *testing.F) {
	f.Add([]byte(`{"step": 10, "time": 1709287200.5, "allocated_bytes.all.current": 1024, "reserved_bytes.all.current": 4096}` + "\n"))
	f.Add([]byte(`{"iteration": 3, "rank": 2, "device": "cuda:1", "timestamp": "2024-03-01T10:00:00", "memory_stats": {"allocated_bytes": {"all": {"current": 100}}}}` + "\n"))
	f.Add([]byte(`{"step": 1, "allocated_mb": 1.5e300, "memory_reserved": -4}` + "\nnot json\n"))
	fuzzReader(f, ingest.FormatMemoryStats)
}

// FuzzSniffLog checks that SniffLog never panics, and that whatever it
// claims, the claimed reader takes without panicking.
func FuzzSniffLog(f *testing.F) {
	realLogSeeds(f, "nvidia-smi", "*/*")
	f.Add([]byte("Epoch 1/10\nloss 0.3\n"))
	f.Add([]byte(`{"step": 1, "allocated": 5}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		format, ok := ingest.SniffLog(data)
		if !ok {
			if format != "" {
				t.Fatalf("unclaimed but format %q", format)
			}
			return
		}
		if again, _ := ingest.SniffLog(data); again != format {
			t.Fatalf("SniffLog not deterministic: %q then %q", format, again)
		}
		if l, err := ingest.ReadLog(bytes.NewReader(data), format, ingest.ReadOptions{}); err == nil {
			checkLogInvariants(t, l)
		}
	})
}
