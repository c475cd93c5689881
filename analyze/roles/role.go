package roles

import (
	"cmp"
	"slices"
)

// Role is what a live block holds (docs/design.md, "Roles of live memory").
type Role uint8

// Roles, in the order reports list them.
const (
	// Parameters are the model's weights and buffers.
	Parameters Role = iota
	// Gradients are the parameters' gradients (.grad, DDP buckets, FSDP
	// and ZeRO gradient shards).
	Gradients
	// OptimizerState is what an optimizer keeps between steps (Adam's
	// exp_avg and exp_avg_sq, momentum buffers, fp32 master weights).
	OptimizerState
	// Activations are tensors made in forward and alive past the
	// operation that made them (saved for backward, or kept).
	Activations
	// Temporaries are short-lived intermediates: freed inside the
	// operation that made them, or in flight at an OOM.
	Temporaries
	// Inputs are the batch: data loader output moved to the device.
	Inputs
	// Workspace is library scratch memory (cuBLAS, cuDNN, NCCL).
	Workspace
	// GraphPools is memory of CUDA-graph and torch.compile private pools.
	GraphPools
	// Other is memory whose stack names none of the roles above.
	Other
	// Unknown is memory without a stack to decide by.
	Unknown
	// NumRoles is the number of roles, for tables indexed by Role.
	NumRoles
)

var roleNames = [NumRoles]string{
	"parameters", "gradients", "optimizer_state", "activations", "temporaries",
	"inputs", "workspace", "graph_pools", "other", "unknown",
}

// String returns the role's name as summary.json writes it
// ("optimizer_state").
func (r Role) String() string {
	if r < NumRoles {
		return roleNames[r]
	}
	return "unknown"
}

// ParseRole returns the role named s (as String writes it).
func ParseRole(s string) (Role, bool) {
	i := slices.Index(roleNames[:], s)
	return Role(max(i, 0)), i >= 0
}

// Evidence is what decided a block's role.
type Evidence uint8

// Kinds of evidence, strongest first.
const (
	// ByLabel: a user label (user_metadata, an annotation, an FX node).
	ByLabel Evidence = iota
	// ByFrame: a frame rule (or the block's pool).
	ByFrame
	// ByLifetime: the phase its stack names and how long it lived.
	ByLifetime
	// ByNothing: no evidence; the role is Other or Unknown by default.
	ByNothing
	// NumEvidence is the number of kinds of evidence.
	NumEvidence
)

var evidenceNames = [NumEvidence]string{"user label", "frame rule", "lifetime", "none"}

// String returns the evidence in words ("frame rule").
func (e Evidence) String() string {
	if e < NumEvidence {
		return evidenceNames[e]
	}
	return "none"
}

// Decision is the role of one block and why.
type Decision struct {
	Role     Role
	Evidence Evidence
	// Rule names the rule that decided (a frame rule's or lifetime rule's
	// name, the kind of label) or, for Unknown, why nothing could.
	Rule string
	// Label is the user's text on the block ("" when none), whether or
	// not it decided the role.
	Label string
}

// Breakdown is the roles of one device's live memory at one moment.
type Breakdown struct {
	// Allocated is the bytes of the blocks classified; Bytes sums to it.
	Allocated int64
	// Bytes and Blocks are each role's bytes and block count.
	Bytes  [NumRoles]int64
	Blocks [NumRoles]int
	// ByEvidence splits each role's bytes by what decided them.
	ByEvidence [NumRoles][NumEvidence]int64
	// Rules lists the rules that decided, with their bytes, most bytes
	// first (ties by name).
	Rules []RuleShare
}

// RuleShare is the memory one rule decided.
type RuleShare struct {
	// Rule is the rule's name; Role and Evidence what it decides.
	Rule     string
	Role     Role
	Evidence Evidence
	// Bytes and Blocks are what it decided.
	Bytes  int64
	Blocks int
}

// Valid reports whether b could be a breakdown Classify made, as far as
// its readers index by it: no negative figure, and each rule's role and
// evidence among the known ones (a breakdown read back from a cache is
// checked before it is used).
func (b *Breakdown) Valid() bool {
	if b.Allocated < 0 {
		return false
	}
	for r := range NumRoles {
		if b.Bytes[r] < 0 || b.Blocks[r] < 0 {
			return false
		}
		for e := range NumEvidence {
			if b.ByEvidence[r][e] < 0 {
				return false
			}
		}
	}
	for _, rs := range b.Rules {
		if rs.Role >= NumRoles || rs.Evidence >= NumEvidence || rs.Bytes < 0 || rs.Blocks < 0 {
			return false
		}
	}
	return true
}

// Share returns the share of role r's bytes that evidence e decided, 0
// when r holds nothing.
func (b *Breakdown) Share(r Role, e Evidence) float64 {
	if b.Bytes[r] == 0 {
		return 0
	}
	return float64(b.ByEvidence[r][e]) / float64(b.Bytes[r])
}

// Fraction returns role r's share of the allocated bytes, 0 when nothing
// is allocated.
func (b *Breakdown) Fraction(r Role) float64 {
	if b.Allocated == 0 {
		return 0
	}
	return float64(b.Bytes[r]) / float64(b.Allocated)
}

// add counts a block of size bytes decided by d.
func (b *Breakdown) add(size int64, d Decision, rules *ruleShares) {
	b.Allocated += size
	b.Bytes[d.Role] += size
	b.Blocks[d.Role]++
	b.ByEvidence[d.Role][d.Evidence] += size
	rs := rules.of(d)
	rs.Bytes += size
	rs.Blocks++
}

// ruleShares sums the bytes and blocks each rule decided, by rule name.
type ruleShares struct {
	byRule map[string]*RuleShare
	// last is the share of the last rule asked for: neighbouring blocks
	// are mostly decided by one rule, and its name is not hashed again.
	last *RuleShare
}

// of returns the share of d's rule, made at its first decision.
func (r *ruleShares) of(d Decision) *RuleShare {
	if r.last != nil && r.last.Rule == d.Rule {
		return r.last
	}
	rs := r.byRule[d.Rule]
	if rs == nil {
		rs = &RuleShare{Rule: d.Rule, Role: d.Role, Evidence: d.Evidence}
		r.byRule[d.Rule] = rs
	}
	r.last = rs
	return rs
}

// finish fills Rules from the per-rule sums.
func (b *Breakdown) finish(rules map[string]*RuleShare) {
	b.Rules = make([]RuleShare, 0, len(rules))
	for _, rs := range rules {
		b.Rules = append(b.Rules, *rs)
	}
	slices.SortFunc(b.Rules, func(x, y RuleShare) int {
		return cmp.Or(cmp.Compare(y.Bytes, x.Bytes), cmp.Compare(x.Rule, y.Rule))
	})
}
