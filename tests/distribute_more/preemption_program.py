"""A training loop under PreemptionCheckpointHandler, run as a child process by test_preemption.py:
python preemption_program.py CHECKPOINT_DIR LAST_STEP [report]. Prints 'ready <step> <run calls>' once restored,
then counts steps up to LAST_STEP (a SIGTERM makes the handler save and exit with code 42; with `report`, an
exit_fn prints 'exit <step>' first). Under TF_CONFIG it is one worker of a MultiWorkerMirroredStrategy cluster."""

import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "src"))
import placeflow as tf  # noqa: E402


def main(directory: str, last_step: int, report: bool) -> None:
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    with strategy.scope():
        step = tf.Variable(0, dtype=tf.int64)
        checkpoint = tf.train.Checkpoint(step=step)

        def exit_fn():
            print("exit", int(step.numpy()), flush=True)
            sys.exit(42)
        config = tf.distribute.experimental.TerminationConfig(exit_fn=exit_fn if report else None)
        handler = tf.distribute.experimental.PreemptionCheckpointHandler(strategy.cluster_resolver, checkpoint,
                                                                         directory, termination_config=config)
    print("ready", int(step.numpy()), handler.total_run_calls, flush=True)
    while int(step.numpy()) < last_step:
        handler.run(lambda: step.assign_add(1))
        time.sleep(0.01)
    print("done", int(step.numpy()), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3:] == ["report"])
