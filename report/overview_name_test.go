package report

import "testing"

func TestRunName(t *testing.T) {
	roots := []string{"/data/exp", "/data/exp/team-a", "/scratch/"}
	tests := []struct{ dir, want string }{
		{"/data/exp/run42", "run42"},
		{"/data/exp/team-a/run7", "run7"}, // the longest root wins
		{"/data/exp/b/rank-runs/r1", "b/rank-runs/r1"},
		{"/scratch/x", "x"},
		{"/data/exp", "exp"}, // the root is itself a run
		{"/elsewhere/run", "/elsewhere/run"},
		{"/data/experiments/run", "/data/experiments/run"}, // a prefix, not a parent
	}
	for _, tt := range tests {
		if got := runName(tt.dir, roots); got != tt.want {
			t.Errorf("runName(%q) = %q, want %q", tt.dir, got, tt.want)
		}
	}
}
