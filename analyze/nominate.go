package analyze

// Survival nominates. A group becomes a suspect when its live bytes grow
// (findSuspects), and survival then tells a leak from a bounded
// container. But a line that keeps a small tensor every step can also
// make big transient tensors (hist.append(torch.stack(xs).mean(0)) with
// stacks="python": one Python line, one stack), which are alive or not
// at a dump as the step's phase falls: the group's live bytes then swing
// by far more than it keeps, and their trend is noise. What it keeps is
// not: the bytes of its blocks that outlive every block it lets go
// (GroupSurvival.Kept over the snapshots older than its turnover) grow
// steadily. So a group whose live bytes do not grow is a suspect when
// those kept bytes grow (survivalEvidence's kept form), under the rules a
// noisy group is held to (SuspectAlpha: groups are many), and its
// growth is theirs.
//
// The false alarms survival already answers stay answered: a bounded
// container, a cache cleared now and then, turn their blocks over, so
// their kept bytes older than the turnover stay flat; a tensor made once
// (an EMA copy) is one step of kept bytes, which the trend rules call a
// step. One more guard: a leak adds what it keeps to its group, so the
// group's live bytes grow at least as fast, however noisy; when their
// trend's 95% interval lies wholly below the kept bytes' (the group shown
// to grow more slowly than what it keeps), the group trades transient
// bytes for lasting ones within a bound (a cache at capacity whose
// popular entries settle), and is no leak.

// keptNominee returns the survival evidence that makes the group with
// signature key a suspect although its live bytes' trend live did not
// grow, nil when its kept bytes do not show a leak (see above). later
// says which groups are worth following (laterBirths).
func keptNominee(sv *Survival, later map[int32]bool, key string, live *Trend, ac attributionContext) *SurvivalEvidence {
	if sv == nil {
		return nil
	}
	if gi, ok := sv.index[key]; !ok || !later[gi] {
		return nil
	}
	nac := ac
	nac.rules.Alpha = DefaultSuspectAlpha
	ev := survivalEvidence(sv.Group(key), nil, nac)
	if ev.Form != SurvivalKept || ev.Kept == nil || ev.Kept.State != StateGrowing {
		return nil
	}
	if live.Hi < ev.Kept.Lo {
		return nil
	}
	lt := *live
	ev.Live = &lt
	return ev
}

// laterBirths returns the groups whose blocks alive at the last snapshot
// were born at two or more snapshots after the first: only their kept
// bytes can grow by more than one step, which the trend rules never call
// growth. One pass over the live blocks, so that a large model's
// thousands of groups are not each followed through its 100k blocks
// (Survival.Group reads them all).
func (sv *Survival) laterBirths() map[int32]bool {
	first := map[int32]int32{} // group -> a later birth seen
	out := map[int32]bool{}
	for i := range sv.live {
		b := &sv.live[i]
		if b.life.born == 0 || out[b.id.group] {
			continue
		}
		if f, ok := first[b.id.group]; !ok {
			first[b.id.group] = b.life.born
		} else if f != b.life.born {
			out[b.id.group] = true
		}
	}
	return out
}
