package gpulog

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"gpureport/input"
)

// What a training log writes before a message: a time, a rank, a log
// level, in any order and with any of the separators loggers use:
//
//	2025-03-02 08:11:59 [rank6]: torch.OutOfMemoryError: ...     timestamp, then the rank
//	[rank6]:[2025-03-02 08:11:59,123] train.py:88 ...            PyTorch's distributed prefix, then logging's
//	[default3]:RuntimeError: ...                                 torchrun --tee (the local rank)
//	[6] 2025-03-02T08:11:59Z ERROR - ...                         a launcher's bare [N]
//	[1,6]<stderr>:RuntimeError: ...                              mpirun --tag-output
//	3: torch.OutOfMemoryError: ...                               srun --label (the task number)
//	worker-1: [rank9]: torch.OutOfMemoryError: ...              pdsh / DeepSpeed's launcher (the host)
//	[pod/job-worker-1/pytorch] [rank1]: torch.OutOfMemoryError:  kubectl logs --prefix (the pod, its container)
//	[1,mpirank:1,algo-1]<stderr>:RuntimeError: ...               SageMaker's mpirun (rank, host)
//	[rank: 1] Seed set to 42                                     Lightning's rank_prefixed_message
//
// linePrefix reads these tokens from the start of a line until the first
// that is none of them; the rest is the message. A launcher's label comes
// first on the line: srun's task number is the rank when no other token
// gives one (Slurm numbers tasks by SLURM_PROCID, the rank torchrun-less
// jobs use), and a host name is passed over only when a rank or a time
// follows it (else "RuntimeError: ..." would be a host); kubectl's pod
// label is always one.

// maxPrefixTokens bounds the tokens read before a message: a time, a
// rank, a level and a few separators.
const maxPrefixTokens = 8

var (
	rePrefixTime = regexp.MustCompile(`^\[?(\d{4}[-/]\d{2}[-/]\d{2}[ T]\d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})?)\]?:?`)
	// rePrefixRank is PyTorch's "[rank3]:" and Lightning's "[rank: 3] "
	// (rank_prefixed_message, the global rank of the process logging).
	rePrefixRank  = regexp.MustCompile(`^\[(?i:rank)(?:: ?| ?)(\d{1,6})\]:?`)
	rePrefixLocal = regexp.MustCompile(`^\[default(\d{1,6})\]:?`)
	rePrefixBare  = regexp.MustCompile(`^\[(\d{1,6})\]:?`)
	// rePrefixMPI is Open MPI's --tag-output "[job,rank]<stream>:", also
	// in SageMaker's form "[1,mpirank:3,algo-2]<stderr>:" (the rank
	// labelled, the host after it).
	rePrefixMPI   = regexp.MustCompile(`^\[\d{1,6},(?:mpirank:)?(\d{1,6})(?:,[A-Za-z0-9][\w.-]{0,62})?\]<std(?:out|err)>:?`)
	rePrefixLevel = regexp.MustCompile(`^\[?(?:DEBUG|INFO|WARN|WARNING|ERROR|CRITICAL|FATAL)\]?:?(?:\s|$)`)
	// rePrefixTask is srun --label's "N: "; rePrefixHost pdsh's "host: "
	// (a host name: letters, digits, '-', '_' and '.').
	rePrefixTask = regexp.MustCompile(`^ *(\d{1,6}): `)
	rePrefixHost = regexp.MustCompile(`^[A-Za-z0-9][\w.-]{0,62}: `)
	// rePrefixPod is kubectl logs --prefix's "[pod/NAME/CONTAINER] " (a
	// pod's name and its container's, each a DNS label or subdomain),
	// also written before the lines of a Cloud Logging export's
	// Kubernetes entries (unwrap.go).
	rePrefixPod = regexp.MustCompile(`^\[pod/[a-z0-9][a-z0-9.-]{0,252}/[a-z0-9][a-z0-9-]{0,62}\] `)
)

// lineHead is what a line's prefix says.
type lineHead struct {
	// stamp is the time as written ("" when none).
	stamp string
	// rank is the rank, input.NoRank when none; local is true when it is
	// torchrun's local rank ("[defaultN]"), task when it is srun's task
	// number.
	rank  int
	local bool
	task  bool
	// label is a launcher's label before the other tokens, as written
	// ("3: ", "worker-1: "); "" when none.
	label string
	// rest is the line after the prefix.
	rest string
}

// readLineHead reads the prefix tokens of line.
func readLineHead(line string) lineHead {
	h := lineHead{rank: input.NoRank}
	h.label = launcherLabel(line)
	s := line[len(h.label):]
	for range maxPrefixTokens {
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			break
		}
		if s[0] == '-' || s[0] == '|' || s[0] == ':' {
			s = s[1:]
			continue
		}
		if m := rePrefixTime.FindStringSubmatch(s); m != nil && h.stamp == "" {
			h.stamp = m[1]
			s = s[len(m[0]):]
			if strings.HasPrefix(m[0], "[") && !strings.HasSuffix(strings.TrimSuffix(m[0], ":"), "]") {
				// SGLang's "[time TP2] ": the ranks before the
				// bracket closes.
				if r, rest, ok := sglangRank(s); ok {
					s = rest
					if h.rank == input.NoRank {
						h.rank = r
					}
				}
			}
			continue
		}
		if h.rank == input.NoRank {
			if r, local, rest, ok := rankToken(s); ok {
				h.rank, h.local, s = r, local, rest
				continue
			}
		}
		if m := rePrefixLevel.FindString(s); m != "" {
			s = s[len(m):]
			continue
		}
		break
	}
	h.rest = s
	if m := rePrefixTask.FindStringSubmatch(h.label); m != nil && h.rank == input.NoRank {
		h.rank, _ = atoi(m[1])
		h.task = true
	}
	return h
}

// launcherLabel is the label a launcher wrote at the start of line (see
// above), as written; "" when none.
func launcherLabel(line string) string {
	if m := rePrefixPod.FindString(line); m != "" {
		// Unmistakable whatever follows it.
		return m
	}
	if m := rePrefixTask.FindString(line); m != "" {
		return m
	}
	if m := rePrefixHost.FindString(line); m != "" {
		rest := strings.TrimLeft(line[len(m):], " ")
		if _, _, _, ok := rankToken(rest); ok || rePrefixTime.MatchString(rest) {
			return m
		}
	}
	return ""
}

// labelMachine is the machine a launcher's label names: "pod/NAME" for
// kubectl's pod label, the host of pdsh's "host: "; "" for srun's task
// number or no label.
func labelMachine(label string) string {
	switch {
	case label == "":
		return ""
	case rePrefixPod.MatchString(label):
		pod, _, _ := strings.Cut(strings.TrimPrefix(label, "[pod/"), "/")
		return "pod/" + pod
	case rePrefixTask.MatchString(label):
		return ""
	}
	return strings.TrimSuffix(strings.TrimSpace(label), ":")
}

// noteRanklessMachines notes OOM messages without a rank that come from
// more than one machine: each is on its own machine's device, which the
// device number alone does not tell apart.
func (b *logBuilder) noteRanklessMachines() {
	var machines []string
	for _, o := range b.log.OOMs {
		if o.Rank == input.NoRank && o.Machine != "" && !slices.Contains(machines, o.Machine) {
			machines = append(machines, o.Machine)
		}
	}
	if len(machines) < 2 {
		return
	}
	b.note(fmt.Sprintf("OOM messages without a rank come from %d machines (%s, by the launcher's line labels): each is on its own machine's GPU, though they name the same device numbers",
		len(machines), strings.Join(machines, ", ")))
}

// rankToken reads a rank token at the start of s: the rank, whether it
// is torchrun's local rank, and the text after the token.
func rankToken(s string) (rank int, local bool, rest string, ok bool) {
	for _, re := range []*regexp.Regexp{rePrefixMPI, rePrefixRank, rePrefixLocal, rePrefixBare} {
		if m := re.FindStringSubmatch(s); m != nil {
			rank, _ = atoi(m[1])
			return rank, re == rePrefixLocal, s[len(m[0]):], true
		}
	}
	return input.NoRank, false, s, false
}

// lineTimeRank reads the time and rank a training log line's prefix
// gives (readLineHead): zero time and input.NoRank when none.
func (b *logBuilder) lineTimeRank(line string) (t time.Time, rank int) {
	h := readLineHead(line)
	if h.rank == input.NoRank && h.stamp == "" {
		if rec, ok := readJSONRecord(line); ok {
			h.stamp, h.rank = rec.stamp, rec.rank
			switch {
			case rec.local:
				b.note("ranks of OOM messages in JSON logger records come from the record's \"local_rank\" key, the local rank on its node")
			case rec.rank != input.NoRank:
				b.note(fmt.Sprintf("ranks of OOM messages in JSON logger records come from the record's %q key", rec.rankKey))
			}
		}
	}
	if h.stamp != "" {
		stamp := strings.Replace(strings.Replace(h.stamp, "T", " ", 1), ",", ".", 1)
		if st, zoneless, ok := parseStamp(stamp, b.opt.Location); ok {
			t = st
			if zoneless {
				b.log.Zoneless = true
			}
		}
	}
	if h.local {
		b.note("ranks of OOM messages and memory summaries come from torchrun's \"[defaultN]:\" prefix, which is the local rank on its node")
	}
	if h.task {
		// Whether the label is a rank is known at the end of the file
		// (resolveTaskRanks).
		return t, taskRank(h.rank)
	}
	return t, h.rank
}

// A JSON logger (python-json-logger, structlog, loguru's serialize=True)
// writes each record as one JSON object on a line, with the writing
// process's rank as a key of its own when the job adds it:
//
//	{"ts": "2024-05-01T12:00:05Z", "level": "ERROR", "rank": 2, "msg": "...", "exc_info": "...OutOfMemoryError..."}
//
// jsonRankKeys are the keys read as the rank, in order of preference:
// global ranks first; "local_rank" is torchrun's rank on the node.
// jsonTimeKeys are the keys read as the record's time (an ISO or
// nvidia-smi style stamp, as parseStamp reads them).
var (
	jsonRankKeys = []string{"global_rank", "rank", "local_rank"}
	jsonTimeKeys = []string{"ts", "time", "timestamp", "asctime", "@timestamp"}
)

// maxJSONRank bounds a rank read from a record: six digits, as the rank
// tokens of line prefixes (rePrefixRank) read them; a larger number is
// no rank.
const maxJSONRank = 999999

// jsonRecord is what a JSON logger record says of its writer.
type jsonRecord struct {
	// stamp is the record's time as written ("" when none); rank its
	// rank (input.NoRank when none), from rankKey; local is true when it
	// is the local rank.
	stamp   string
	rank    int
	rankKey string
	local   bool
}

// readJSONRecord reads line as a JSON logger record: ok is false when
// the line is not one JSON object.
func readJSONRecord(line string) (jsonRecord, bool) {
	rec := jsonRecord{rank: input.NoRank}
	s := strings.TrimSpace(line)
	if !strings.HasPrefix(s, "{") || !strings.HasSuffix(s, "}") {
		return rec, false
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(s), &obj) != nil {
		return rec, false
	}
	for _, k := range jsonRankKeys {
		raw, ok := obj[k]
		if !ok {
			continue
		}
		// A rank is written as a number or as a string of digits
		// (os.environ["RANK"] logged as it is).
		v := strings.Trim(string(raw), `"`)
		if r, ok := atoi(v); ok && r <= maxJSONRank {
			rec.rank, rec.rankKey, rec.local = r, k, k == "local_rank"
			break
		}
	}
	for _, k := range jsonTimeKeys {
		var v string
		if raw, ok := obj[k]; ok && json.Unmarshal(raw, &v) == nil && v != "" {
			rec.stamp = v
			break
		}
	}
	return rec, true
}
