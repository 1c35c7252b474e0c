"""The hospital's side of an MLLP connection, played by Debian's python3-hl7 (not code of ours).

Answers every message with the acknowledgement code it was started with (AA, AE or AR); an AE or AR carries an
ERR segment with --error-text. Prints "LISTENING <port>" once it accepts connections, and appends each message it
receives to --record (one line each, segments separated by "|CR|") when asked. Run with /usr/bin/python3.
"""

import argparse
import asyncio
import sys

import hl7
from hl7.mllp import start_hl7_server


def parse_arguments():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--code", default="AA", choices=["AA", "AE", "AR"])
    parser.add_argument("--error-text", default="Unknown sending facility")
    parser.add_argument("--record", default=None)
    return parser.parse_args()


def acknowledgement(message, arguments):
    ack = message.create_ack(ack_code=arguments.code)
    if arguments.code == "AA":
        return ack
    text = str(ack) + "\rERR|||207^Application internal error^HL70357|E||||" + arguments.error_text
    return hl7.parse(text)


async def main():
    arguments = parse_arguments()

    async def answer(reader, writer):
        try:
            while not writer.is_closing():
                message = await reader.readmessage()
                if arguments.record:
                    with open(arguments.record, "a", encoding="utf-8") as record:
                        record.write(str(message).replace("\r", "|CR|") + "\n")
                writer.writemessage(acknowledgement(message, arguments))
                await writer.drain()
        except asyncio.IncompleteReadError:
            pass
        finally:
            writer.close()

    server = await start_hl7_server(answer, host=arguments.host, port=arguments.port)
    port = server.sockets[0].getsockname()[1]
    print(f"LISTENING {port}", flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        sys.exit(0)
