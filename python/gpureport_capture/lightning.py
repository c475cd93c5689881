"""PyTorch Lightning callback: the capture kit inside a Lightning Trainer.

::

    from gpureport_capture.lightning import CaptureCallback

    trainer = Trainer(callbacks=[CaptureCallback("run42", every=100)])

Importing this module imports Lightning (``lightning.pytorch``, Lightning
2.0+, else ``pytorch_lightning``); the kit itself never needs it.

Hooks (Lightning's Callback API, present since 1.x): on_fit_start starts
the capture with the trainer's global_rank, local_rank and world_size;
on_train_batch_end records each optimizer step once (trainer.global_step,
which counts optimizer steps, so with gradient accumulation a step is
recorded after its last micro-batch); on_exception, on_fit_end and
teardown stop it.
"""

try:
    from lightning.pytorch.callbacks import Callback
except ImportError:
    try:
        from pytorch_lightning.callbacks import Callback
    except ImportError as e:
        raise ImportError("gpureport_capture.lightning needs PyTorch Lightning (lightning or pytorch_lightning)") from e

from ._capture import DEFAULT_EVERY, Capture


class CaptureCallback(Callback):
    """Captures what gpureport reads during Trainer.fit: snapshots every
    ``every`` optimizer steps, one at an OOM, memory_stats lines, the
    manifest and (local rank 0) a GPU log. options are Capture's."""

    def __init__(self, run_dir, every=DEFAULT_EVERY, **options):
        super().__init__()
        self.run_dir = run_dir
        self.every = every
        self.options = options
        self.capture = None
        self._last_step = None

    def on_fit_start(self, trainer, pl_module):
        opts = dict(self.options)
        opts.setdefault("rank", getattr(trainer, "global_rank", None))
        opts.setdefault("local_rank", getattr(trainer, "local_rank", None))
        opts.setdefault("world_size", getattr(trainer, "world_size", None))
        self.capture = Capture(self.run_dir, self.every, **opts).start()
        # A resumed run starts at its restored step, recorded only once the
        # next optimizer step is done.
        self._last_step = getattr(trainer, "global_step", None)

    def on_train_batch_end(self, trainer, pl_module, *args, **kwargs):
        if self.capture is None:
            return
        step = trainer.global_step
        if step != self._last_step:
            self._last_step = step
            self.capture.step(step)

    def on_exception(self, trainer, pl_module, exception):
        self._stop()

    def on_fit_end(self, trainer, pl_module):
        self._stop()

    def teardown(self, trainer, pl_module, stage):
        self._stop()

    def _stop(self):
        if self.capture is not None:
            self.capture.stop()
