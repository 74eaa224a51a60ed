"""A task of a loopback cluster: `python task_server.py '<cluster json>' <job> <index>` serves until killed."""

import json
import sys

import placeflow as tf

if __name__ == "__main__":
    server = tf.distribute.Server(json.loads(sys.argv[1]), job_name=sys.argv[2], task_index=int(sys.argv[3]))
    print("READY " + server.target, flush=True)
    server.join()
