package words

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"gpureport/analyze"
	"gpureport/analyze/roles"
	"gpureport/internal/units"
)

// maxRolesNamed bounds the roles a one-line summary of roles names; the
// rest are folded into "n more".
const maxRolesNamed = 4

// roleWords are the roles as a sentence names them.
var roleWords = [roles.NumRoles]string{
	"parameters", "gradients", "optimizer state", "activations", "temporaries",
	"inputs", "workspace", "graph pools", "other", "unknown",
}

// Role names a role in words ("optimizer state").
func Role(r roles.Role) string {
	if r < roles.NumRoles {
		return roleWords[r]
	}
	return "unknown"
}

// RoleShare is one role's bytes, for the lines and tables that list the
// roles largest first.
type RoleShare struct {
	Role  roles.Role
	Bytes int64
}

// ByBytes returns the roles of bytes that hold any, largest first (in
// the roles' order among equals).
func ByBytes(bytes *[roles.NumRoles]int64) []RoleShare {
	var out []RoleShare
	for r, n := range bytes {
		if n > 0 {
			out = append(out, RoleShare{Role: roles.Role(r), Bytes: n})
		}
	}
	slices.SortStableFunc(out, func(a, b RoleShare) int { return cmp.Compare(b.Bytes, a.Bytes) })
	return out
}

// RolesList names the largest roles of bytes with their sizes:
// "activations 41.2 GiB, optimizer state 18.0 GiB, parameters 9.0 GiB,
// 2 more 310 MiB"; "" when no role holds anything.
func RolesList(bytes *[roles.NumRoles]int64) string {
	rs := ByBytes(bytes)
	var parts []string
	var rest int64
	for i, r := range rs {
		if i < maxRolesNamed {
			parts = append(parts, Role(r.Role)+" "+units.Bytes(r.Bytes))
			continue
		}
		rest += r.Bytes
	}
	if n := len(rs) - maxRolesNamed; n > 0 {
		parts = append(parts, fmt.Sprintf("%d more %s", n, units.Bytes(rest)))
	}
	return strings.Join(parts, ", ")
}

// Held is the run's one line of roles (Findings.Held): "At the OOM on
// cuda:0: activations 41.2 GiB, optimizer state 18.0 GiB, parameters
// 9.0 GiB, 2 more 310 MiB." or, without an OOM, the same at the peak
// snapshot; "" when no roles are known.
func Held(f *analyze.Findings) string {
	h := f.Held
	if h == nil {
		return ""
	}
	var bd *roles.Breakdown
	when := ""
	switch {
	case h.OOM >= 0 && h.OOM < len(f.OOMs):
		bd, when = f.OOMs[h.OOM].Roles, "At the OOM on "+Device(h.Device)
	case h.Point >= 0:
		d := device(f, h.Device)
		if d == nil || h.Point >= len(d.Points) {
			return ""
		}
		bd, when = d.Points[h.Point].Roles, "At the peak snapshot of "+Device(h.Device)
	}
	if bd == nil {
		return ""
	}
	list := RolesList(&bd.Bytes)
	if list == "" {
		return ""
	}
	return fmt.Sprintf("%s, live memory (%s) held: %s.", when, units.Bytes(bd.Allocated), list)
}

// Certainty says how sure a breakdown's roles are: the share of the
// bytes with a role (not unknown) that user labels, frame rules and
// lifetimes decided, and why the unknown bytes are unknown: "Roles of
// 12.0 GiB decided: 61% by frame rules, 39% by lifetimes; 2.0 GiB
// unknown (no frames, allocated before the trace began)."
func Certainty(bd *roles.Breakdown) string {
	if bd == nil || bd.Allocated == 0 {
		return ""
	}
	var by [roles.NumEvidence]int64
	var known int64
	for r := range roles.NumRoles {
		if r == roles.Unknown {
			continue
		}
		for e := range roles.NumEvidence {
			by[e] += bd.ByEvidence[r][e]
		}
		known += bd.Bytes[r]
	}
	var parts []string
	for e := range roles.NumEvidence {
		if by[e] > 0 && known > 0 {
			parts = append(parts, units.Percent(float64(by[e])/float64(known))+" by "+evidenceWords[e])
		}
	}
	s := ""
	if known > 0 {
		s = fmt.Sprintf("Roles of %s decided: %s.", units.Bytes(known), strings.Join(parts, ", "))
	}
	if u := bd.Bytes[roles.Unknown]; u > 0 {
		var why []string
		for _, r := range bd.Rules {
			if r.Role == roles.Unknown && r.Bytes > 0 {
				why = append(why, r.Rule)
			}
		}
		s = strings.TrimSpace(s + fmt.Sprintf(" %s unknown (%s).", units.Bytes(u), strings.Join(why, "; ")))
	}
	return s
}

// evidenceWords name each kind of evidence in the plural ("frame
// rules"), as Certainty lists them; "no evidence" for roles decided by
// default.
var evidenceWords = [roles.NumEvidence]string{
	roles.ByLabel:    "user labels",
	roles.ByFrame:    "frame rules",
	roles.ByLifetime: "lifetimes",
	roles.ByNothing:  "no evidence (other)",
}

// SuspectRole says what a leak suspect's live blocks are: "The leak is
// activations kept across steps (4.0 GiB of its 4.1 GiB at the last
// snapshot, decided by frame rule)."; "" when its roles are not known.
func SuspectRole(sp *analyze.Suspect) string {
	sr := sp.Roles
	if sr == nil {
		return ""
	}
	var total int64
	for _, n := range sr.Bytes {
		total += n
	}
	if total == 0 {
		return ""
	}
	what := map[roles.Role]string{
		roles.Parameters:     "parameters made again and again",
		roles.Gradients:      "gradients kept across steps",
		roles.OptimizerState: "optimizer state that keeps growing",
		roles.Activations:    "activations kept across steps",
		roles.Temporaries:    "temporaries kept alive",
		roles.Inputs:         "input batches kept across steps",
		roles.Workspace:      "library workspace",
		roles.GraphPools:     "CUDA-graph pool memory",
		roles.Other:          "memory of no known role",
		roles.Unknown:        "memory of unknown role (no stacks)",
	}[sr.Role]
	decided := "decided by " + sr.Evidence.String()
	if sr.Evidence == roles.ByNothing {
		decided = "no rule named a role for its stack"
	}
	return fmt.Sprintf("The leak is %s (%s of its %s at the last snapshot, %s).",
		what, units.Bytes(sr.Bytes[sr.Role]), units.Bytes(total), decided)
}

// CapacityRoles is what a capacity OOM's explanation adds from its
// roles: the largest roles and what the levers could free; "" without
// roles.
func CapacityRoles(o *analyze.OOM) string {
	if o.Roles == nil || o.Roles.Allocated == 0 {
		return ""
	}
	s := "What held the live memory"
	if o.Phase != "" {
		s += " (the OOM came in " + o.Phase + ")"
	}
	s += ": " + RolesList(&o.Roles.Bytes) + "."
	if most := roles.MostFreed(o.Levers); most > 0 {
		s += fmt.Sprintf(" The changes below could free up to about %s together (estimates; changes to one role are alternatives), against the %s the request lacked.",
			units.Bytes(most), units.Bytes(o.Missing))
	}
	return s
}

// leverSteps are what each lever that needs no figure asks the user to
// do, as they would type it or do it; the sharding levers, which name the
// run's ranks, are in shardLevers.
var leverSteps = map[roles.LeverKind]string{
	roles.SmallerMicroBatch:       "halve the micro-batch and double the gradient-accumulation steps",
	roles.ActivationCheckpointing: "activation checkpointing: wrap the largest blocks in torch.utils.checkpoint.checkpoint with use_reentrant=False",
	roles.EightBitOptimizer:       "an 8-bit optimizer (bitsandbytes.optim.AdamW8bit)",
	roles.FusedOptimizer:          "a fused optimizer step (fused=True)",
	roles.GradientsToNone:         "optimizer.zero_grad(set_to_none=True) before forward",
	roles.ExpandableSegments:      analyze.ExpandableSetting,
}

// shardLevers are the sharding levers: what each shards over the ranks
// and the ZeRO stage (or FSDP) that does it.
var shardLevers = map[roles.LeverKind]struct{ what, how string }{
	roles.ShardOptimizerState: {"optimizer state", "ZeRO-1, FSDP"},
	roles.ShardGradients:      {"gradients", "ZeRO-2, FSDP"},
	roles.ShardParameters:     {"parameters", "ZeRO-3, FSDP"},
}

// lever is what a lever changes, as the user would type it or do it.
func lever(o *analyze.OOM, l roles.Lever) string {
	if s, ok := leverSteps[l.Kind]; ok {
		return s
	}
	if sh, ok := shardLevers[l.Kind]; ok {
		return fmt.Sprintf("shard the %s over the %d ranks (%s)", sh.what, o.Ranks, sh.how)
	}
	return l.Kind.String()
}

// leverBecause is the estimate a lever rests on.
func leverBecause(o *analyze.OOM, l roles.Lever) string {
	of := ""
	if o.Roles != nil && l.Role != roles.Other {
		of = " of the " + units.Bytes(o.Roles.Bytes[l.Role]) + " of " + Role(l.Role)
	}
	return fmt.Sprintf("would free about %s%s at the OOM (an estimate): %s", units.Bytes(l.Bytes), of, l.Basis)
}

// RolesAtPeak titles the roles of the peak snapshot, the n-th (from 1).
func RolesAtPeak(n int) string { return fmt.Sprintf("At the peak snapshot (#%d)", n) }

// RolesAtDump titles the roles of the n-th snapshot (from 1), taken at
// an OOM or at exit.
func RolesAtDump(n int) string { return fmt.Sprintf("At the OOM or exit dump (#%d)", n) }

// RolesAtOOM titles the roles rebuilt at OOM o's own trace event, with
// its time and the phase of the step when known.
func RolesAtOOM(o *analyze.OOM) string {
	title := "At the OOM"
	if !o.Time.IsZero() {
		title += " at " + units.Timestamp(o.Time)
	}
	if o.Phase != "" {
		title += " (in " + o.Phase + ")"
	}
	return title
}

// RolesAtTracePeak titles the roles at the peak inside the last trace,
// trace event index.
func RolesAtTracePeak(index int) string {
	return fmt.Sprintf("At the peak inside the last trace (event %d)", index)
}
