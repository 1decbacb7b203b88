#!/usr/bin/python3
"""qmp.py SOCKET COMMAND [ARGUMENTS-JSON]

Send one command to QEMU's QMP socket (after the capabilities
handshake) and print its "return" as JSON; exit 1 on a QMP error.
Asynchronous events that arrive in between are skipped.
"""
import json
import socket
import sys


def reply(f):
    while True:
        line = f.readline()
        if not line:
            sys.exit("qmp.py: QEMU closed the socket")
        msg = json.loads(line)
        if "event" not in msg:
            return msg


def main():
    sock, command = sys.argv[1], sys.argv[2]
    args = json.loads(sys.argv[3]) if len(sys.argv) > 3 else {}
    with socket.socket(socket.AF_UNIX) as s:
        s.connect(sock)
        f = s.makefile("rw")
        reply(f)  # the greeting
        for cmd in ({"execute": "qmp_capabilities"},
                    {"execute": command, "arguments": args}):
            f.write(json.dumps(cmd) + "\n")
            f.flush()
            msg = reply(f)
            if "error" in msg:
                sys.exit("qmp.py: %s: %s" % (cmd["execute"], msg["error"]))
    print(json.dumps(msg["return"]))


if __name__ == "__main__":
    main()
