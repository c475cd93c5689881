"""Hugging Face Trainer callback: the capture kit inside transformers.Trainer.

::

    from gpureport_capture.huggingface import CaptureCallback

    trainer = Trainer(..., callbacks=[CaptureCallback("run42", every=100)])

Importing this module imports transformers; the kit itself never needs it.

Hooks (transformers' TrainerCallback API, present since 3.4):
on_train_begin starts the capture with the TrainingArguments'
process_index, local_process_index and world_size; on_step_end records
each update step (state.global_step: with gradient accumulation, once per
optimizer step); on_train_end stops it. An exception that ends training
stops it at interpreter exit.
"""

try:
    from transformers import TrainerCallback
except ImportError as e:
    raise ImportError("gpureport_capture.huggingface needs transformers") from e

from ._capture import DEFAULT_EVERY, Capture


class CaptureCallback(TrainerCallback):
    """Captures what gpureport reads during Trainer.train: snapshots every
    ``every`` update steps, one at an OOM, memory_stats lines, the manifest
    and (local rank 0) a GPU log. options are Capture's."""

    def __init__(self, run_dir, every=DEFAULT_EVERY, **options):
        self.run_dir = run_dir
        self.every = every
        self.options = options
        self.capture = None

    def on_train_begin(self, args, state, control, **kwargs):
        opts = dict(self.options)
        opts.setdefault("rank", getattr(args, "process_index", None))
        opts.setdefault("local_rank", getattr(args, "local_process_index", None))
        opts.setdefault("world_size", getattr(args, "world_size", None))
        self.capture = Capture(self.run_dir, self.every, **opts).start()

    def on_step_end(self, args, state, control, **kwargs):
        if self.capture is not None:
            self.capture.step(state.global_step)

    def on_train_end(self, args, state, control, **kwargs):
        if self.capture is not None:
            self.capture.stop()
