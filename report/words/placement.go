package words

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"gpureport/analyze"
	"gpureport/ingest"
	"gpureport/input"
	"gpureport/internal/units"
	"gpureport/placement"
)

// The words of placement's decisions: which GPU of the logs a device
// joins and why, a GPU log's clock offset, and what placement assumed
// about ranks, machines and capture manifests.

// maxRankNames bounds the ranks a note names one by one: a note is read,
// and eight path-to-rank pairs show the pattern of any numbering.
const maxRankNames = 8

// GPUJoin says how a device's GPU readings were chosen: the join's rule
// and evidence, with the clock offset the log's times were moved by; ""
// without GPU readings.
func GPUJoin(d *analyze.Device) string {
	if d.GPU == nil && d.UsedShare == nil {
		return ""
	}
	var s string
	if d.GPUJoin != nil {
		s = Join(d.DeviceKey, d.GPUJoin)
	} else {
		s = "nvidia-smi GPU " + strconv.Itoa(d.GPUIndex)
		if d.MIG != "" {
			s += " MIG " + d.MIG
		}
		if d.GPU == nil {
			s += " (used memory as a percent of the device)"
		}
	}
	if d.ClockShift != 0 {
		what := "the snapshots"
		if len(d.Points) == 0 {
			what = "the memory_stats readings"
		}
		sign := "+"
		if d.ClockShift < 0 {
			sign = ""
		}
		s += "; log times moved " + sign + strconv.Itoa(d.ClockShift) + " h to match " + what
	}
	return s
}

// Join says which GPU of the logs device k joins, by which rule, and the
// evidence the rule saw: "nvidia-smi GPU 5 = cuda:0 (its memory.used
// tracks this device's reserved memory at 10 of 10 snapshot times, 500
// MiB above it; GPU 0 is below reserved memory at 10 of 10 times)".
func Join(k analyze.DeviceKey, j *analyze.Join) string {
	s := "nvidia-smi GPU " + strconv.Itoa(j.GPU) + " = "
	switch j.Method {
	case placement.JoinByIndex:
		return s + "CUDA device " + strconv.Itoa(k.Device) + " (same index)"
	case placement.JoinByRank:
		s += fmt.Sprintf("rank %d (guess: every rank's snapshots are on CUDA device %d)", k.Rank, k.Device)
		if j.Confirmed {
			s += "; its memory.used tracks this rank's reserved memory"
		}
		return s
	case placement.JoinByUUID:
		switch id := j.ID; {
		case id.Manifest != "":
			return s + Device(k) + " (same UUID GPU-" + id.UUID + " in the capture manifest " + id.Manifest + " and the GPU log)"
		case id.UUID != "":
			return s + Device(k) + " (same UUID GPU-" + id.UUID + " in memory_stats and the GPU log)"
		}
		return s + Device(k) + " (process " + strconv.Itoa(j.ID.PID) + " of memory_stats runs on it in the compute-apps log)"
	case placement.JoinByLifetime:
		if l := j.Life.InOrder; len(l) > 0 {
			return s + fmt.Sprintf("%s (the snapshots have no usable times; GPUs %s are the %d GPUs busy for one stretch inside the log, idle before and after it, at these %d devices' reserved memory, and the devices take them in order, as CUDA_VISIBLE_DEVICES lists them)",
				Device(k), intList(l), len(l), len(l))
		}
		return s + fmt.Sprintf("%s (the snapshots have no usable times; GPU %d is the only GPU busy for one stretch inside the log, idle before and after it, at this device's reserved memory of up to %s)",
			Device(k), j.GPU, units.Bytes(j.Life.Peak))
	case placement.JoinByTracking:
		t := j.Track
		s += fmt.Sprintf("%s (its memory.used tracks this device's reserved memory at %d of %d snapshot times, %s%s; %s)",
			Device(k), t.Tracked, t.Matched, aboveOrBelow(t.Above, "it"), trackEvidence(t), indexOutcome(t))
		if len(j.Ambiguous) > 0 {
			gpus := make([]string, len(j.Ambiguous))
			for i, g := range j.Ambiguous {
				gpus[i] = "GPU " + strconv.Itoa(g)
			}
			s += "; ambiguous: " + strings.Join(gpus, ", ") + " " + tracks(len(gpus)) + " it about as well"
		}
		return s
	}
	// A rule without words of its own yet says its name.
	return s + Device(k) + " (" + string(j.Method) + ")"
}

// aboveOrBelow says how far memory.used sits from reserved memory:
// "500 MiB above it", "424 MiB below it".
func aboveOrBelow(gap int64, what string) string {
	if gap < 0 {
		return units.Bytes(-gap) + " below " + what
	}
	return units.Bytes(gap) + " above " + what
}

// trackEvidence is the specific evidence a tracking GPU gave beyond the
// figures: the process's lifetime, the departures it followed ("" when
// neither).
func trackEvidence(t placement.Tracking) string {
	s := ""
	if t.Lifetime {
		s += ", busy from just before the first snapshot to just after the last"
	}
	if t.Departures > 0 {
		s += fmt.Sprintf(", and moved with it at %d of the %d snapshots away from its usual level", t.Followed, t.Departures)
	}
	return s
}

// indexOutcome says why the index rule's GPU lost, or that the devices
// took one GPU each in rank order.
func indexOutcome(t placement.Tracking) string {
	if t.InRankOrder {
		return "one GPU per device, in rank order"
	}
	o := t.Index
	s := "GPU " + strconv.Itoa(o.GPU) + " is "
	switch o.Loss {
	case placement.IndexNotLogged, placement.IndexNotAtTimes:
		return s + string(o.Loss)
	case placement.IndexBelow:
		return s + fmt.Sprintf("below reserved memory at %d of %d times", o.Below, o.Matched)
	case placement.IndexNoRoom:
		return s + "typically " + units.Bytes(o.Gap) + " below reserved memory, with no room for a CUDA context"
	case placement.IndexFurther:
		return s + "further from it, " + units.Bytes(o.Gap) + " above"
	}
	return s + string(o.Loss)
}

// joinAmbiguous is the note on a device whose GPU tracking chose among
// GPUs that follow it about equally well.
func joinAmbiguous(d *analyze.Device) string {
	j := d.GPUJoin
	gpus := make([]string, len(j.Ambiguous))
	for i, g := range j.Ambiguous {
		gpus[i] = "GPU " + strconv.Itoa(g)
	}
	return fmt.Sprintf("the GPU of %s is ambiguous: nvidia-smi GPU %d was chosen because its memory.used tracks reserved memory best, but %s %s it about as well; log torch.cuda.get_device_properties(d).uuid in the memory_stats lines (key \"uuid\") to make the join certain",
		Device(d.DeviceKey), j.GPU, strings.Join(gpus, ", "), tracks(len(gpus)))
}

// clockOffset is the note on a GPU log whose times are whole hours off
// those of what it was matched with (what: "the snapshots", "the
// torch.cuda.memory_stats readings"): "GPU log times look 2 h ahead of
// the snapshots: the log was probably written in UTC+02:00 but read as
// UTC; rerun with --tz +02:00".
func clockOffset(c analyze.ClockNote, what string) string {
	h, dir := c.Hours, "ahead of"
	if h < 0 {
		dir, h = "behind", -h
	}
	if c.Zone == "" {
		return fmt.Sprintf("GPU log times look %d h %s %s (read as %s); no time zone explains that: check the clock of the machine that wrote the log", h, dir, what, utcZone(c.ReadAs))
	}
	return fmt.Sprintf("GPU log times look %d h %s %s: the log was probably written in %s but read as %s; rerun with --tz %s", h, dir, what, utcZone(c.Zone), utcZone(c.ReadAs), c.Zone)
}

// utcZone names a UTC offset as a zone: "UTC", "UTC+02:00".
func utcZone(offset string) string {
	if offset == "UTC" {
		return offset
	}
	return "UTC" + offset
}

// placeNote is a note on what placement assumed.
func placeNote(n *analyze.PlaceNote) string {
	switch {
	case n.Ranks != nil:
		r := n.Ranks
		names := make([]string, 0, min(len(r.Paths), maxRankNames)+1)
		for i, p := range r.Paths[:min(len(r.Paths), maxRankNames)] {
			rank := i
			if i < len(r.Ranks) {
				rank = r.Ranks[i]
			}
			who := "rank " + strconv.Itoa(rank)
			switch {
			case i < len(r.Runs) && r.Runs[i].N > 0:
				who = r.Runs[i].Name()
			case i < len(r.PIDs):
				who = "pid " + strconv.Itoa(r.PIDs[i])
			}
			names = append(names, who+" "+p)
		}
		if len(r.Paths) > maxRankNames {
			names = append(names, "and "+strconv.Itoa(len(r.Paths)-maxRankNames)+" more")
		}
		if r.Restarts != nil {
			return restartNote(r, names)
		}
		place := "dumps of one place in the run"
		if r.ByTime {
			place = "dumps, nearest in time, of names that alternate"
		}
		if r.Ranks != nil {
			return fmt.Sprintf("the snapshot paths do not give each process a rank of its own (%s and %s are %s whose traces cover the same time with no allocator event in common: two processes): "+
				"a rank their paths name is kept, and the processes found beside it are numbered after the ranks in use: %s", r.Clash[0], r.Clash[1], place, strings.Join(names, ", "))
		}
		evidence := "are " + place
		if r.SeparateRuns {
			evidence += "; folders whose dumps follow one another in time, each counting its steps from the start, are separate runs (a sweep's experiments, or a job restarted in a folder of its own), not one process's steps"
		}
		if r.ByTrace {
			evidence += "; where names differ only in a word, their traces cover the same time with no allocator event in common"
		}
		if r.PIDs != nil {
			return fmt.Sprintf("the snapshot paths do not give each process a rank of its own (%s and %s %s): "+
				"the %d processes are told apart by the process ids their paths name, and named by them (no rank is known): %s", r.Clash[0], r.Clash[1], evidence, len(r.Paths), strings.Join(names, ", "))
		}
		if runs := countRuns(r.Runs); runs == len(r.Paths) {
			return fmt.Sprintf("the snapshot paths do not give each process a rank of its own (%s and %s %s): "+
				"the %d runs are kept apart and named as runs of the script (%s), no ranks of one job: %s", r.Clash[0], r.Clash[1], evidence, runs, runNaming(r.Runs), strings.Join(names, ", "))
		} else if runs > 0 {
			return fmt.Sprintf("the snapshot paths do not give each process a rank of its own (%s and %s %s): "+
				"of the %d processes their paths tell apart, %d are separate runs of the script, named as runs (%s), and the others are numbered as ranks in path order: %s",
				r.Clash[0], r.Clash[1], evidence, len(r.Paths), runs, runNaming(r.Runs), strings.Join(names, ", "))
		}
		return fmt.Sprintf("the snapshot paths do not give each process a rank of its own (%s and %s %s): "+
			"the %d processes their paths tell apart are numbered as ranks in path order: %s", r.Clash[0], r.Clash[1], evidence, len(r.Paths), strings.Join(names, ", "))
	case n.Machines != nil:
		m := n.Machines
		moved := make([]string, len(m.Moved))
		for i, l := range m.Moved {
			moved[i] = l.Path + " as GPUs " + strconv.Itoa(l.FirstGPU) + " and up"
		}
		var why []string
		if m.ByReadings {
			why = append(why, "logs that read the same GPU number at the same times see different memory")
		}
		if m.ByIdentity {
			why = append(why, "logs name different GPUs at one number: another UUID, bus id, product or memory size")
		}
		return fmt.Sprintf("the GPU logs read %d machines (%s): "+
			"the GPUs of each further machine are numbered after the ones before, as torchrun numbers ranks across nodes: %s", m.Machines, strings.Join(why, "; "), strings.Join(moved, "; "))
	case n.Alternation != nil:
		a := n.Alternation
		where := ""
		if a.Rank != input.NoRank {
			where = " of rank " + strconv.Itoa(a.Rank)
		}
		why := "their traces cover too little time in common to tell whether these are several processes"
		if a.Untimed {
			why = "their traces have no times (PyTorch before 2.2 writes none) to tell whether these are several processes"
		}
		return fmt.Sprintf("the snapshot names%s fall into %d groups that alternate in time (%s; e.g. %s and %s), and %s: "+
			"they are one series, as the dumps of one process; if they are several processes (hosts), give each its own folder or a rank in its name",
			where, len(a.Paths), strings.Join(a.Paths, ", "), a.Example[0], a.Example[1], why)
	case n.Unranked != nil:
		return unrankedNote(n.Unranked)
	case n.Manifests != nil:
		c := n.Manifests
		return fmt.Sprintf("the capture manifests %s and %s give %s different GPUs (%s, %s); neither is used to find its GPU log",
			c.Paths[0], c.Paths[1], Device(analyze.DeviceKey{Rank: c.Rank, Device: c.Device}), c.UUIDs[0], c.UUIDs[1])
	}
	return string(n.Kind)
}

// restartNote says that a rank's dumps were parted into runs of the
// script one after another (placement.RankNumbering.Restarts); names are
// the runs' numbers and first dumps.
func restartNote(r *placement.RankNumbering, names []string) string {
	bounds := make([]string, len(r.Restarts))
	for i, b := range r.Restarts {
		why := "after " + units.Duration(time.Duration(b.GapSeconds*float64(time.Second))) + ", many times the dumps' usual interval"
		if b.StepBack {
			why = "its step counter starting over"
		}
		bounds[i] = fmt.Sprintf("%s then %s (%s)", b.Before, b.After, why)
	}
	return fmt.Sprintf("the snapshots start over as a new run of the script: %s have no live block or segment in common, "+
		"while one process keeps its blocks (its model's parameters) from one dump to the next: each run is a process of its own, "+
		"named as a run of the script (%s), no rank of the job: %s",
		strings.Join(bounds, "; "), runNaming(r.Runs), strings.Join(names, ", "))
}

// countRuns is how many of runs are separate runs of the script.
func countRuns(runs []ingest.ScriptRun) int {
	n := 0
	for _, r := range runs {
		if r.N > 0 {
			n++
		}
	}
	return n
}

// runNaming says how separate runs of the script are named: by their
// folders when every one has one (ingest.ScriptRun.Folder), else by
// their numbers in time order.
func runNaming(runs []ingest.ScriptRun) string {
	for _, r := range runs {
		if r.N > 0 && r.Folder == "" {
			return "numbered in time order"
		}
	}
	return "by the folders that hold their dumps"
}

// tracks is the verb for n GPUs that track a device.
func tracks(n int) string {
	if n == 1 {
		return "tracks"
	}
	return "track"
}

// intList lists numbers: "1, 2, 3".
func intList(v []int) string {
	s := make([]string, len(v))
	for i, n := range v {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ", ")
}

// unrankedNote says what became of the snapshots whose paths give no
// rank: joined to the run's only rank, or kept apart beside several.
func unrankedNote(u *placement.UnrankedDumps) string {
	paths := strings.Join(u.Paths, ", ")
	if more := u.Count - len(u.Paths); more > 0 {
		paths += " and " + strconv.Itoa(more) + " more"
	}
	ranks := make([]string, len(u.Ranks))
	for i, r := range u.Ranks {
		ranks[i] = strconv.Itoa(r)
	}
	if u.Rank == input.NoRank && u.InTurn != nil && len(u.Ranks) == 1 {
		it := u.InTurn
		return fmt.Sprintf("%s without a rank in %s (%s) %s kept a series of %s own (no rank), apart from rank %d's dumps: "+
			"%s and %s, where the two meet in time (%s apart), have no live block, segment or allocation stack in common, "+
			"while one process keeps its blocks (its model's parameters) from one dump to the next: two processes, one after the other; "+
			"if they are one, give its dumps one rank in their names",
			units.CountOf(u.Count, "snapshot"), pronoun(u.Count, "its name", "their names"), paths, pronoun(u.Count, "is", "are"), pronoun(u.Count, "its", "their"), u.Ranks[0],
			it.Before, it.After, units.Duration(time.Duration(it.GapSeconds*float64(time.Second))))
	}
	if u.Rank == input.NoRank {
		return fmt.Sprintf("%s without a rank in %s (%s) %s beside the dumps of ranks %s, and nothing says which rank wrote %s: "+
			"%s kept a series of %s own (no rank); give each process's dumps a rank in their names",
			units.CountOf(u.Count, "snapshot"), pronoun(u.Count, "its name", "their names"), paths, pronoun(u.Count, "lies", "lie"), strings.Join(ranks, ", "),
			pronoun(u.Count, "it", "them"), pronoun(u.Count, "it is", "they are"), pronoun(u.Count, "its", "their"))
	}
	why := "on its device, nothing shows two processes (no dumps at one step, periodic dumps one after another, no traces of two processes)"
	if u.ByTrace {
		why = pronoun(u.Count, "its allocator trace shares", "their allocator traces share") + " events with its dumps, one process's ring buffer"
	}
	whose := "the only rank the other snapshot names give"
	if len(u.Ranks) > 1 {
		whose = "of the ranks " + strings.Join(ranks, ", ") + " the other snapshot names give"
	}
	return fmt.Sprintf("%s without a rank in %s (%s) %s taken as rank %d's, %s: %s",
		units.CountOf(u.Count, "snapshot"), pronoun(u.Count, "its name", "their names"), paths, pronoun(u.Count, "is", "are"), u.Rank, whose, why)
}

// pronoun picks the singular or the plural form for n things.
func pronoun(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
