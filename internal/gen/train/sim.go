package train

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"sort"
	"strings"

	"gpureport/internal/gen/alloc"
	"gpureport/internal/gen/layout"
)

// SnapInfo describes one dumped snapshot, measured from the simulator
// (the ground truth an analysis should recover from the file).
type SnapInfo struct {
	// Rank and Step of the dump; Path relative to the run directory.
	Rank, Step int
	Path       string
	// Bytes is the file size.
	Bytes int64
	// TimeUS is the dump time (microseconds since the epoch, UTC).
	TimeUS int64
	// Byte totals over the rank's segments, as docs/design.md defines them.
	Reserved, Allocated, Active, Requested, Inactive, LargestFree int64
	Segments, Blocks, TraceEntries                                int
	// LeakLive is the bytes held by planted-leak blocks; OneTimeLive by
	// the one-time buffer; PinnedLive by the fragmentation pins.
	LeakLive, OneTimeLive, PinnedLive int64
	// PrivateReserved, PrivateAllocated and PrivateInactive are the part
	// of Reserved, Allocated and Inactive in private pools (CUDA graphs).
	PrivateReserved, PrivateAllocated, PrivateInactive int64
	// OOM marks the snapshot dumped by the out-of-memory handler.
	OOM bool
}

// OOMInfo describes the allocation that failed.
type OOMInfo struct {
	Rank, Step int
	TimeUS     int64
	alloc.OOMError
	// Site is the innermost user frame of the failed allocation.
	Site string
	// LeakLive is the bytes the planted leak held on the failing rank at
	// the failure.
	LeakLive int64
}

// Result is what a simulated run produced.
type Result struct {
	Spec      *Spec
	Snapshots []SnapInfo
	// OOM is set when an allocation failed (the run stopped there).
	OOM *OOMInfo
	// LastStep is the last step simulated.
	LastStep int
	// LeakSite is the planted leak's innermost user frame ("" for none);
	// LeakEvents counts leaked tensors.
	LeakSite   string
	LeakEvents int
	// OutsideStart and OutsideEnd are the non-PyTorch bytes on the
	// affected rank at the first and last dump.
	OutsideStart, OutsideEnd int64
	// PeakReserved is the most reserved bytes of any rank at any time.
	PeakReserved int64
	// MaxSeq is the longest padded sequence length of any step.
	MaxSeq int
	// SmiSamples is the number of nvidia-smi rows written.
	SmiSamples int
	// Files are the written files, relative to the run directory.
	Files []string
	// Bytes is the total size written.
	Bytes int64
}

// RankDir returns the directory of a rank's snapshots, relative to the run
// directory.
func (s *Spec) RankDir(rank int) string {
	if s.Ranks == 1 {
		return ""
	}
	return fmt.Sprintf("rank%d", rank)
}

type tensor = *alloc.Block

// rank is one process: its allocator and the tensors it holds.
type rank struct {
	idx   int
	a     *alloc.Allocator
	clk   int64 // event cursor, microseconds
	gap   int64 // spacing of events in the current phase
	end   int64 // end of the current phase
	tCtx  int64 // CUDA context created
	tExit int64 // process exit

	params, grads, optState []tensor
	cublas                  tensor
	leaked                  []tensor
	oneTime                 []tensor
	pins                    []pin
	// bounded, kv and graphs are the plants' live tensors (plants.go).
	bounded, kv, graphs, heavy []tensor

	saved [][]tensor // per layer, saved activations
	anns  []layout.Annotation

	resTL []tlPoint
	// dumps counts the rank's periodic dumps (the index in index and
	// epoch file names).
	dumps int
	// stats are the rank's memory_stats JSON lines; ooms its OOM count.
	stats []string
	ooms  int
}

type pin struct {
	b tensor
}

type tlPoint struct {
	t, reserved int64
}

type sim struct {
	spec  *Spec
	era   Era
	r     *rand.Rand
	cat   *catalog
	prog  *program
	ranks []*rank
	res   *Result
	dir   string
	write bool

	paramSizes []int64
	stepStart  []int64
	t0         int64
	err        error
	onTrace    func(*alloc.TraceEntry)
}

var errOOM = errors.New("out of memory")

// Run simulates the run and, when dir is not empty, writes its snapshots
// and nvidia-smi log under dir.
func Run(spec *Spec, dir string) (*Result, error) {
	prog, err := newSpecProgram(spec)
	if err != nil {
		return nil, err
	}
	s := newSim(spec, dir, prog, nil)
	steps := spec.Steps()
	if spec.UntilOOM {
		steps = spec.MaxSteps
	}
	if err := s.start(steps); err != nil {
		return nil, err
	}
	dumps := map[int]bool{}
	for _, d := range spec.DumpSteps() {
		dumps[d] = true
	}
	last := steps - 1
	for step := 0; step < steps; step++ {
		stop, err := s.doStep(step, dumps)
		if err != nil {
			return nil, err
		}
		if stop {
			last = step
			break
		}
	}
	s.finish(last)
	if s.err != nil {
		return nil, s.err
	}
	if s.write {
		if err := s.writeSmi(); err != nil {
			return nil, err
		}
		if err := s.writeTrainLog(); err != nil {
			return nil, err
		}
		if err := s.writeStats(); err != nil {
			return nil, err
		}
		if err := s.setFileTimes(); err != nil {
			return nil, err
		}
	}
	return s.res, nil
}

// newSpecProgram validates spec and builds its program (frames and sites).
func newSpecProgram(spec *Spec) (*program, error) {
	if err := spec.Validate(); err != nil {
		return nil, fmt.Errorf("spec %s: %w", spec.Name, err)
	}
	era, _ := EraByVersion(spec.Version)
	env := Env{Era: era, SitePackages: spec.SitePackages, Project: spec.Project, CppStacks: spec.CppStacks && era.CppStacks, Wrappers: spec.Wrappers}
	leakSite, oneSite := "", ""
	if spec.Leak != nil {
		leakSite = spec.Leak.Site
	}
	if spec.OneTime != nil {
		oneSite = spec.OneTime.Site
	}
	prog, err := newProgram(newCatalog(env), leakSite, oneSite, spec.ExtraOps)
	if err != nil {
		return nil, fmt.Errorf("spec %s: %w", spec.Name, err)
	}
	prog.plants = newPlantSites(prog.c, spec)
	return prog, nil
}

// newSim prepares a simulation of spec with prog's frames. Two
// simulations of one spec and program produce identical events (the
// program's context IDs restart at 0).
func newSim(spec *Spec, dir string, prog *program, onTrace func(*alloc.TraceEntry)) *sim {
	era, _ := EraByVersion(spec.Version)
	prog.c.nextID = 0
	return &sim{
		spec: spec, era: era, cat: prog.c, prog: prog, dir: dir, write: dir != "",
		r:       rand.New(rand.NewPCG(spec.Seed, 0x9e3779b97f4a7c15)),
		res:     &Result{Spec: spec, LeakSite: prog.c.leakUser(prog)},
		t0:      spec.Start.UnixMicro(),
		onTrace: onTrace,
	}
}

// start creates the ranks and runs their setup, for a run of steps steps.
func (s *sim) start(steps int) error {
	sp := s.spec
	s.initParams()
	for i := 0; i < sp.Ranks; i++ {
		base := uint64(0x7f0000000000) + uint64(s.r.IntN(256))<<32 + uint64(i)<<40
		if s.era.Version >= "2.5" {
			base = uint64(0x300000000) + uint64(s.r.IntN(64))<<30 + uint64(i)<<38
		}
		rk := &rank{idx: i, a: alloc.New(alloc.Config{
			Device: i, Capacity: sp.Capacity(), MaxSplitSize: sp.MaxSplitSize,
			RoundupPower2Divisions: sp.RoundupDivisions, Expandable: sp.Expandable,
			MaxEntries: sp.MaxEntries, History: s.layoutFormat() == layout.History,
			BaseAddress: base, OnTrace: s.onTrace,
		})}
		rk.saved = make([][]tensor, sp.Layers)
		s.ranks = append(s.ranks, rk)
	}
	s.planSteps(steps)
	for _, rk := range s.ranks {
		if err := s.setup(rk); err != nil {
			return err
		}
	}
	return nil
}

// doStep runs one step on every rank, dumping when dumps says so. It
// reports stop when an allocation failed (the run ends there).
func (s *sim) doStep(step int, dumps map[int]bool) (bool, error) {
	s.res.LastStep = step
	phase := s.spec.Phase
	if phase == PhaseRandom {
		phase = []Phase{PhaseStart, PhaseAfterForward, PhaseAfterBackward, PhaseEnd}[s.r.IntN(4)]
	}
	for _, rk := range s.ranks {
		dumpAt := Phase("")
		if dumps[step] {
			dumpAt = phase
		}
		err := s.step(rk, step, dumpAt)
		if errors.Is(err, errOOM) {
			switch s.spec.oomDump() {
			case OOMExit:
				s.unwind(rk)
				s.dump(rk, step, true)
			case OOMNone:
				s.unwind(rk)
			}
			s.noteStats(rk, step, true)
			return true, nil
		}
		if err != nil {
			return false, err
		}
		s.noteStats(rk, step, false)
	}
	return false, nil
}

// finish records process exit times.
func (s *sim) finish(step int) {
	end := s.stepStart[min(step+1, len(s.stepStart)-1)]
	for _, rk := range s.ranks {
		rk.tExit = max(end, rk.clk) + int64(1e6+s.r.Float64()*2e6)
	}
}

func (s *sim) layoutFormat() layout.Format {
	if s.spec.Format != "" {
		return s.spec.Format
	}
	return s.era.Layout.Format
}

// initParams lays out the parameter tensors: per block qkv, proj, fc1,
// fc2 weights and biases and two layer norms; then embeddings and the
// final norm (the LM head is tied to the token embedding).
func (s *sim) initParams() {
	sp := s.spec
	h, p := int64(sp.Hidden), int64(sp.ParamBytes)
	for range sp.Layers {
		s.paramSizes = append(s.paramSizes,
			h*p, h*p, // ln1
			3*h*h*p, 3*h*p, // qkv
			h*h*p, h*p, // proj
			h*p, h*p, // ln2
			4*h*h*p, 4*h*p, // fc1
			4*h*h*p, h*p) // fc2
	}
	s.paramSizes = append(s.paramSizes, int64(sp.Vocab)*h*p, int64(sp.SeqMax)*h*p, h*p, h*p)
}

// planSteps fixes every step's start time.
func (s *sim) planSteps(n int) {
	t := s.t0
	for i := 0; i <= n; i++ {
		s.stepStart = append(s.stepStart, t)
		d := s.spec.StepSeconds * (1 + s.spec.StepJitter*s.r.NormFloat64())
		d = math.Max(d, s.spec.StepSeconds*0.3)
		t += int64(d * 1e6)
	}
}

// overhead returns the bytes rank rk has in use outside the allocator at
// time t.
func (s *sim) overhead(rk *rank, t int64) int64 {
	if t < rk.tCtx {
		return 0
	}
	sp := s.spec
	o := sp.ContextMiB << 20
	if sp.Ranks > 1 && t >= s.t0 {
		o += sp.NCCLMiB << 20
	}
	if sp.OutsideGrowthMiBHour > 0 && t > s.t0 && (sp.OutsideRank < 0 || sp.OutsideRank == rk.idx) {
		el := float64(t - s.t0)
		if q := sp.OutsideStepSeconds * 1e6; q > 0 {
			el = math.Floor(el/q) * q
		}
		o += int64(sp.OutsideGrowthMiBHour * el / 3.6e9 * (1 << 20))
	}
	return o
}

// phase positions the event cursor: events from here are spread over
// [from, to) of the step at roughly n events.
func (s *sim) phase(rk *rank, step int, from, to float64, n int) {
	st, en := s.stepStart[step], s.stepStart[step+1]
	d := float64(en - st)
	start := st + int64(from*d)
	if start > rk.clk {
		rk.clk = start
	}
	rk.end = st + int64(to*d)
	rk.gap = max(1, (rk.end-rk.clk)/int64(max(n, 1)))
}

func (s *sim) tick(rk *rank) {
	g := rk.gap
	if rk.clk+g >= rk.end {
		g = 1 + s.r.Int64N(3)
	} else {
		g = g/2 + s.r.Int64N(g+1)
	}
	rk.clk += g
	rk.a.SetTime(rk.clk)
}

func (s *sim) noteReserved(rk *rank) {
	r := rk.a.Reserved()
	s.res.PeakReserved = max(s.res.PeakReserved, r)
	if n := len(rk.resTL); n == 0 || rk.resTL[n-1].reserved != r {
		rk.resTL = append(rk.resTL, tlPoint{rk.clk, r})
	}
}

// m allocates n bytes at site (nil tensor and errOOM on failure).
func (s *sim) m(rk *rank, step int, n int64, st *site) (tensor, error) {
	s.tick(rk)
	b, err := rk.a.Malloc(n, 0, s.cat.ctx(st))
	s.noteReserved(rk)
	if err != nil {
		var oe *alloc.OOMError
		if errors.As(err, &oe) {
			s.res.OOM = &OOMInfo{Rank: rk.idx, Step: step, TimeUS: rk.clk, OOMError: *oe, Site: st.user, LeakLive: sumSizes(rk.leaked)}
			if s.spec.oomDump() == OOMObserver {
				s.dump(rk, step, true)
			}
			return nil, errOOM
		}
		return nil, err
	}
	return b, nil
}

// free releases b with the stack of the free site.
func (s *sim) free(rk *rank, b tensor, st *site) {
	if b == nil {
		return
	}
	s.tick(rk)
	rk.a.Free(b, s.cat.ctx(st))
	s.noteReserved(rk)
}

func (s *sim) freeAll(rk *rank, bs []tensor, st *site) {
	for _, b := range bs {
		s.free(rk, b, st)
	}
}

// setup starts the process: CUDA context, recording, the model's
// parameters.
func (s *sim) setup(rk *rank) error {
	sp := s.spec
	startup := int64((6 + 10*s.r.Float64()) * 1e6)
	rk.tCtx = s.t0 - startup
	rk.clk = rk.tCtx + int64(2e6)
	rk.a.SetTime(rk.clk)
	rk.a.SetOverhead(s.overhead(rk, rk.clk))
	// Stacks are recorded whenever history recording is on, even with a
	// trace ring of 0 entries (state only).
	rk.a.SetRecording(!sp.RecordAfterSetup)
	rk.end = s.t0 - int64(1e6)
	rk.gap = max(1, (rk.end-rk.clk)/int64(len(s.paramSizes)+1))
	for _, n := range s.paramSizes {
		b, err := s.m(rk, 0, n, s.prog.paramInit)
		if err != nil {
			return fmt.Errorf("spec %s: the model does not fit on the GPU: %w", sp.Name, err)
		}
		rk.params = append(rk.params, b)
	}
	rk.a.SetRecording(true)
	return nil
}

// step runs one training step of rank rk, dumping a snapshot at dumpAt
// (none when empty).
func (s *sim) step(rk *rank, step int, dumpAt Phase) error {
	sp := s.spec
	p := s.prog
	rk.a.SetOverhead(s.overhead(rk, s.stepStart[step]))
	L := sp.Layers
	s.phase(rk, step, 0, 0.03, 8)
	if sp.EmptyCacheEvery > 0 && step > 0 && step%sp.EmptyCacheEvery == 0 {
		s.tick(rk)
		rk.a.EmptyCache(s.cat.ctx(p.emptyCache))
		s.noteReserved(rk)
	}
	if dumpAt == PhaseStart {
		s.dump(rk, step, false)
	}
	if err := s.captureStep(rk, step); err != nil {
		return err
	}
	if err := s.heavyStep(rk, step); err != nil {
		return err
	}
	S := s.seqLen(step)
	s.res.MaxSeq = max(s.res.MaxSeq, int(S))
	B, H, V := int64(sp.Batch), int64(sp.Hidden), int64(sp.Vocab)
	ab := int64(sp.ActBytes)
	act := B * S * H * ab
	att := B * int64(sp.Heads) * S * S * ab
	leaking := rk.idx == sp.LeakRank && sp.Leak.leaksAt(step)

	// Data.
	ids, err := s.m(rk, step, B*S*8, p.data)
	if err != nil {
		return err
	}
	labels, err := s.m(rk, step, B*S*8, p.data)
	if err != nil {
		return err
	}
	var stepTemps []tensor
	if leaking && sp.Leak.Site == "data.py:64" {
		if err := s.leak(rk, step); err != nil {
			return err
		}
	}
	if f := sp.Frag; f != nil {
		if err := s.frag(rk, step); err != nil {
			return err
		}
	}

	// Forward.
	s.phase(rk, step, 0.03, 0.33, 12*L+8)
	emb, err := s.m(rk, step, act, p.embed)
	if err != nil {
		return err
	}
	for l := 0; l < L; l++ {
		var sv []tensor
		mm := func(n int64, st *site) (tensor, error) {
			b, err := s.m(rk, step, n, st)
			if err == nil {
				sv = append(sv, b)
			}
			return b, err
		}
		if _, err := mm(act, p.ln); err != nil {
			return err
		}
		casts, err := s.casts(rk, step)
		sv = append(sv, casts...)
		if err != nil {
			return err
		}
		if rk.cublas == nil {
			ws := int64(4 << 20)
			if sp.GPU.TotalMiB > 70000 {
				ws = 32 << 20
			}
			if rk.cublas, err = s.m(rk, step, ws, p.cublas); err != nil {
				return err
			}
		}
		if _, err := mm(3*act, p.qkv); err != nil {
			return err
		}
		scores, err := s.m(rk, step, att, p.scores)
		if err != nil {
			return err
		}
		if _, err := mm(att, p.softmax); err != nil {
			return err
		}
		s.free(rk, scores, p.freeFwd)
		for _, st := range p.extra {
			tmp, err := s.m(rk, step, act, st)
			if err != nil {
				return err
			}
			s.free(rk, tmp, p.freeFwd)
		}
		if l == 0 && leaking && sp.Leak.Site == "model.py:88" {
			if err := s.leak(rk, step); err != nil {
				return err
			}
		}
		for _, a := range []struct {
			n  int64
			st *site
		}{{act, p.attnOut}, {act, p.proj}, {act, p.resid}, {act, p.ln}, {4 * act, p.fc1}, {4 * act, p.gelu}, {act, p.fc2}, {act, p.resid}} {
			if _, err := mm(a.n, a.st); err != nil {
				return err
			}
		}
		rk.saved[l] = sv
	}
	lnf, err := s.m(rk, step, act, p.ln)
	if err != nil {
		return err
	}
	logits, err := s.m(rk, step, B*S*V*ab, p.lmHead)
	if err != nil {
		return err
	}
	logp, err := s.m(rk, step, B*S*V*4, p.xent)
	if err != nil {
		return err
	}
	loss, err := s.m(rk, step, 4, p.loss)
	if err != nil {
		return err
	}
	if leaking && (sp.Leak.Site == "train.py:57" || sp.Leak.Site == "metrics.py:41" || sp.Leak.Site == ConcatLeakSite) {
		if err := s.leak(rk, step); err != nil {
			return err
		}
	}
	if err := s.boundedStep(rk, step); err != nil {
		return err
	}
	if dumpAt == PhaseAfterForward {
		s.dump(rk, step, false)
	}

	// Backward (autograd engine thread).
	s.phase(rk, step, 0.33, 0.85, 40*L+8)
	dlogits, err := s.m(rk, step, B*S*V*ab, p.bwdElem)
	if err != nil {
		return err
	}
	s.free(rk, logp, p.freeBwd)
	g, err := s.m(rk, step, act, p.bwdMM)
	if err != nil {
		return err
	}
	s.free(rk, dlogits, p.freeBwd)
	s.free(rk, logits, p.freeBwd)
	s.free(rk, lnf, p.freeBwd)
	needGrads := rk.grads == nil
	if needGrads {
		rk.grads = make([]tensor, len(rk.params))
	}
	grad := func(i int) error {
		if rk.grads[i] != nil {
			return nil
		}
		b, err := s.m(rk, step, s.paramSizes[i], p.accGrad)
		rk.grads[i] = b
		return err
	}
	nl := len(s.paramSizes) - 4
	for i := nl; i < len(s.paramSizes); i++ {
		if err := grad(i); err != nil {
			return err
		}
	}
	for l := L - 1; l >= 0; l-- {
		base := l * 12
		sv := rk.saved[l]
		t1, err := s.m(rk, step, 4*act, p.bwdMM)
		if err != nil {
			return err
		}
		for _, i := range []int{10, 11} {
			if err := grad(base + i); err != nil {
				return err
			}
		}
		t2, err := s.m(rk, step, 4*act, p.bwdElem)
		if err != nil {
			return err
		}
		s.free(rk, t1, p.freeBwd)
		s.freeAll(rk, sv[len(sv)-4:], p.freeBwd)
		for _, i := range []int{6, 7, 8, 9} {
			if err := grad(base + i); err != nil {
				return err
			}
		}
		g2, err := s.m(rk, step, act, p.bwdMM)
		if err != nil {
			return err
		}
		s.free(rk, t2, p.freeBwd)
		s.free(rk, g, p.freeBwd)
		t4, err := s.m(rk, step, att, p.bwdElem)
		if err != nil {
			return err
		}
		t5, err := s.m(rk, step, att, p.bwdMM)
		if err != nil {
			return err
		}
		s.free(rk, t4, p.freeBwd)
		s.freeAll(rk, sv[2:len(sv)-4], p.freeBwd)
		t6, err := s.m(rk, step, 3*act, p.bwdMM)
		if err != nil {
			return err
		}
		s.free(rk, t5, p.freeBwd)
		for _, i := range []int{0, 1, 2, 3, 4, 5} {
			if err := grad(base + i); err != nil {
				return err
			}
		}
		g, err = s.m(rk, step, act, p.bwdMM)
		if err != nil {
			return err
		}
		s.free(rk, t6, p.freeBwd)
		s.free(rk, g2, p.freeBwd)
		s.freeAll(rk, sv[:2], p.freeBwd)
		rk.saved[l] = nil
	}
	s.free(rk, g, p.freeBwd)
	s.free(rk, emb, p.freeBwd)
	for i := 0; i < nl; i++ {
		if err := grad(i); err != nil {
			return err
		}
	}
	if leaking && sp.Leak.Site == BackwardLeakSite {
		if err := s.leak(rk, step); err != nil {
			return err
		}
	}
	if dumpAt == PhaseAfterBackward {
		s.dump(rk, step, false)
	}

	// Optimizer (with gradient accumulation, every Accum steps only).
	if sp.optimizerStep(step) {
		s.phase(rk, step, 0.85, 0.97, 6*len(s.paramSizes)+4)
		s.annotate(rk, "START", "Optimizer.step#AdamW.step")
		if rk.optState == nil {
			for _, n := range s.paramSizes {
				for range 2 {
					b, err := s.m(rk, step, n, p.optInit)
					if err != nil {
						return err
					}
					rk.optState = append(rk.optState, b)
				}
			}
		}
		for _, n := range s.paramSizes {
			b, err := s.m(rk, step, n, p.optTemp)
			if err != nil {
				return err
			}
			stepTemps = append(stepTemps, b)
		}
		s.freeAll(rk, stepTemps, p.freeOpt)
		s.annotate(rk, "END", "Optimizer.step#AdamW.step")
		s.annotate(rk, "START", "Optimizer.zero_grad#AdamW.zero_grad")
		if sp.GradsToNone {
			s.freeAll(rk, rk.grads, p.freeZeroGrad)
			rk.grads = nil
		}
		s.annotate(rk, "END", "Optimizer.zero_grad#AdamW.zero_grad")
	}
	// The step's Python objects die when train_step returns.
	s.phase(rk, step, 0.97, 1, 8)
	s.freeAll(rk, []tensor{loss, labels, ids}, p.freeStepEnd)
	if o := sp.OneTime; o != nil && step == o.Step {
		b, err := s.m(rk, step, o.Bytes, p.oneTime)
		if err != nil {
			return err
		}
		rk.oneTime = append(rk.oneTime, b)
	}
	if err := s.kvStep(rk, step); err != nil {
		return err
	}
	if dumpAt == PhaseEnd {
		s.dump(rk, step, false)
	}
	return nil
}

func (s *sim) leak(rk *rank, step int) error {
	n := s.spec.Leak.Bytes
	concat := s.spec.Leak.Mode == LeakConcat && len(rk.leaked) > 0
	if concat {
		// torch.cat([history, x]): a new tensor of both, then the old
		// history goes.
		n += rk.leaked[0].Requested
	}
	b, err := s.m(rk, step, n, s.prog.leak)
	if err != nil {
		return err
	}
	if concat {
		s.free(rk, rk.leaked[0], s.prog.freeStepEnd)
		rk.leaked = rk.leaked[:0]
	}
	rk.leaked = append(rk.leaked, b)
	s.res.LeakEvents++
	return nil
}

// frag runs the fragmentation pattern (see Frag).
func (s *sim) frag(rk *rank, step int) error {
	f := s.spec.Frag
	p := s.prog
	perStage := max((s.spec.Steps()-1)/max(f.Stages, 1), 1)
	stage := step / perStage
	size := f.BigStart
	if f.Stages > 1 {
		size += int64(stage) * (f.BigEnd - f.BigStart) / int64(f.Stages-1)
	}
	const twoMiB = 2 << 20
	n := size/twoMiB*twoMiB + (200<<10 + int64(stage*137%600)<<10)
	big, err := s.m(rk, step, n, p.fragBig)
	if err != nil {
		return err
	}
	if rem := big.Next(); big.Prev() == nil && rem != nil && rem.Next() == nil && rem.State == alloc.Inactive && rem.Size <= twoMiB {
		pb, err := s.m(rk, step, rem.Size, p.fragPin)
		if err != nil {
			return err
		}
		rk.pins = append(rk.pins, pin{b: pb})
		if len(rk.pins) > f.Pins {
			s.free(rk, rk.pins[0].b, p.fragFree)
			rk.pins = rk.pins[1:]
		}
	}
	s.free(rk, big, p.fragFree)
	return nil
}

func (s *sim) annotate(rk *rank, stage, name string) {
	if !s.era.Layout.ExternalAnnotations {
		return
	}
	s.tick(rk)
	rk.anns = append(rk.anns, layout.Annotation{Stage: stage, Name: name, Device: rk.idx, TimeUS: rk.clk})
	if len(rk.anns) > 8 {
		rk.anns = rk.anns[len(rk.anns)-8:]
	}
}

func sumSizes(bs []tensor) int64 {
	var n int64
	for _, b := range bs {
		if b != nil {
			n += b.Size
		}
	}
	return n
}

// dump takes a snapshot of rank rk: measures it and writes the file.
func (s *sim) dump(rk *rank, step int, oom bool) {
	sp := s.spec
	a := rk.a
	s.tick(rk)
	info := SnapInfo{Rank: rk.idx, Step: step, TimeUS: rk.clk, OOM: oom,
		LeakLive: sumSizes(rk.leaked), OneTimeLive: sumSizes(rk.oneTime)}
	for _, x := range rk.pins {
		info.PinnedLive += x.b.Size
	}
	// The allocator keeps the byte totals as it goes (alloc's Check proves
	// them equal to the blocks' sums); the rest is counted from the blocks.
	info.Reserved, info.Allocated, info.Active = a.Reserved(), a.Allocated(), a.Active()
	info.Inactive = info.Reserved - info.Active
	for _, seg := range a.Segments() {
		info.Segments++
		private := seg.Pool != (alloc.PoolID{})
		if private {
			info.PrivateReserved += seg.Size
		}
		for _, b := range seg.Blocks() {
			info.Blocks++
			if b.State == alloc.Inactive {
				info.LargestFree = max(info.LargestFree, b.Size)
			} else {
				info.Requested += b.Requested
			}
			switch {
			case !private:
			case b.State == alloc.Inactive:
				info.PrivateInactive += b.Size
			case b.State == alloc.ActiveAllocated:
				info.PrivateAllocated += b.Size
			}
		}
	}
	trace := a.Trace()
	info.TraceEntries = len(trace)
	info.Path = sp.snapshotPath(rk.idx, step, rk.dumps, rk.clk, oom)
	if !oom {
		rk.dumps++
	}
	if s.write {
		opt := s.era.Layout
		opt.Format = s.layoutFormat()
		opt.Cpp = sp.Cpp
		opt.Devices = sp.visibleGPUs()
		var anns []layout.Annotation
		if len(trace) > 0 {
			for _, an := range rk.anns {
				if an.TimeUS >= trace[0].TimeUS {
					anns = append(anns, an)
				}
			}
		}
		b := layout.NewBuilder(opt)
		tree := b.Build([]layout.Device{{Alloc: a, Trace: trace}}, layout.Settings{
			Conf: s.allocConf(), MaxSplitSize: sp.MaxSplitSize, Expandable: sp.Expandable,
			RoundupPower2Divisions: sp.RoundupDivisions}, anns)
		n, err := layout.WriteFile(filepath.Join(s.dir, filepath.FromSlash(info.Path)), tree,
			layout.FileOptions{Protocol: sp.Protocol, Cpp: sp.Cpp, Container: sp.Container})
		if err != nil {
			s.fail(err)
		}
		info.Bytes = int64(n)
		s.res.Files = append(s.res.Files, info.Path)
		s.res.Bytes += int64(n)
	}
	a.RecordSnapshot()
	if sp.OutsideRank < 0 || sp.OutsideRank == rk.idx {
		o := s.overhead(rk, rk.clk)
		if s.res.OutsideStart == 0 {
			s.res.OutsideStart = o
		}
		s.res.OutsideEnd = o
	}
	s.res.Snapshots = append(s.res.Snapshots, info)
}

// fail records the first write error; Run returns it at the end.
func (s *sim) fail(err error) {
	if s.err == nil {
		s.err = err
	}
}

func (s *sim) allocConf() string {
	sp := s.spec
	var parts []string
	if sp.Expandable {
		parts = append(parts, "expandable_segments:True")
	}
	if sp.MaxSplitSize > 0 {
		parts = append(parts, fmt.Sprintf("max_split_size_mb:%d", sp.MaxSplitSize>>20))
	}
	if sp.RoundupDivisions > 1 {
		parts = append(parts, fmt.Sprintf("roundup_power2_divisions:%d", sp.RoundupDivisions))
	}
	return strings.Join(parts, ",")
}

// reservedAt returns rank rk's reserved bytes at time t.
func (rk *rank) reservedAt(t int64) int64 {
	i := sort.Search(len(rk.resTL), func(i int) bool { return rk.resTL[i].t > t })
	if i == 0 {
		return 0
	}
	return rk.resTL[i-1].reserved
}
