"""The hospital's side in the transport tests, written with Debian's python3-hl7 (not our code).

  python-mllp-peer.py serve       asyncio MLLP server (hl7.mllp.start_hl7_server); prints "LISTENING <port>", then
                                  one JSON line per message received (read as UTF-8 by hl7.parse) and answers the library's
                                  own ACK (Message.create_ack), AA unless --code says otherwise.
  python-mllp-peer.py send PORT   sends stdin as one message with hl7.client.MLLPClient, reads the answer with
                                  hl7.parse and prints it as JSON.
Run with /usr/bin/python3 (the system interpreter that has python3-hl7).
"""
import asyncio
import json
import sys

import hl7
from hl7.client import MLLPClient
from hl7.mllp import start_hl7_server


def describe(message):
    msh = message.segment("MSH")
    return {
        "type": str(msh(9)),
        "control_id": str(msh(10)),
        "version": str(msh(12)),
        "segments": [str(segment(0)) for segment in message],
        "text": str(message),
    }


async def serve(code, limit):
    async def on_connection(reader, writer):
        try:
            while not writer.is_closing():
                message = await reader.readmessage()
                print(json.dumps({"received": describe(message)}), flush=True)
                writer.writemessage(message.create_ack(ack_code=code))
                await writer.drain()
        except asyncio.IncompleteReadError:
            pass
        except Exception as error:  # shown by the test that started this peer
            print("peer failed: %r" % error, file=sys.stderr, flush=True)
        finally:
            writer.close()

    server = await start_hl7_server(on_connection, host="127.0.0.1", port=0, limit=limit, encoding="utf-8")
    print("LISTENING %d" % server.sockets[0].getsockname()[1], flush=True)
    async with server:
        await server.serve_forever()


def send(port):
    text = sys.stdin.read().replace("\n", "\r")
    with MLLPClient("127.0.0.1", port) as client:
        answer = client.send_message(text)
    # MLLPClient returns the raw frame: strip <VT> and <FS><CR> before parsing.
    ack = hl7.parse(answer.decode("utf-8").strip("\x0b\x1c\r"))
    msa = ack.segment("MSA")
    errors = [str(segment(3)(1)(1)) for segment in ack if str(segment(0)) == "ERR"]
    print(json.dumps({"ack": describe(ack), "code": str(msa(1)), "acknowledged": str(msa(2)), "errors": errors}))


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        code = sys.argv[sys.argv.index("--code") + 1] if "--code" in sys.argv else "AA"
        asyncio.run(serve(code, limit=32 * 1024 * 1024))
    else:
        send(int(sys.argv[2]))
