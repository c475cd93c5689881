package gpulog

import (
	"strings"
	"testing"
	"time"
)

// TestRecoveryLinesBounded: a job that logs a recovery line every batch
// (and no OOM message) holds a bounded number of them, and a message
// after thousands of them still pairs with the recovery line after it.
func TestRecoveryLinesBounded(t *testing.T) {
	const recovered = "2021-05-04 12:00:35 | WARNING | fairseq.trainer | attempting to recover from OOM in forward/backward pass"
	b := newLogBuilder(FormatTrainingLog, ReadOptions{Location: time.UTC})
	b.lr = &lineReader{}
	tr := newTrainingReader(b)
	feed := func(line string) {
		b.lr.n++
		tr.line(line)
	}
	for range 20000 {
		feed(recovered)
		feed("2021-05-04 12:00:42 | INFO | train_inner | epoch 001:    400 / 4000 loss=8.7")
	}
	if n := len(tr.rec.lines); n > 2*minRecoveryPrune {
		t.Errorf("%d recovery lines held, want at most %d", n, 2*minRecoveryPrune)
	}
	for _, l := range strings.Split(strings.Repeat("2021-05-04 12:00:42 | INFO | train_inner | epoch 001:    400 / 4000 loss=8.7\n", 700), "\n") {
		feed(l)
	}
	feed("2021-05-04 12:00:28 | WARNING | fairseq.trainer | OOM: Ran out of memory with exception: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 23.99 GiB total capacity; 19.21 GiB already allocated; 1.12 GiB free; 21.30 GiB reserved in total by PyTorch)")
	feed("")
	feed(recovered)
	if err := tr.end(); err != nil {
		t.Fatal(err)
	}
	if len(b.log.OOMs) != 1 || !b.log.OOMs[0].Handled {
		t.Errorf("OOMs %+v, want one, handled", b.log.OOMs)
	}
}
