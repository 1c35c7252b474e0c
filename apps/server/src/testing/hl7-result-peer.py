"""The hospital's chart receiving Vigil's results, played by Debian's python3-hl7 (not code of ours).

Reads each message with hl7.parse and appends what it understood to --record as one JSON line: the message type,
MSH-10, the order numbers, the result status (an order status message: ORC-1 and ORC-5), the text OBX (unescaped) and the SHA-256 of the bytes OBX-5.5 of the
ED OBX decodes to (base64). Answers AA, or AE with an ERR segment (--code AE). Prints "LISTENING <port>" once it
accepts connections. Run with /usr/bin/python3.
"""

import argparse
import asyncio
import base64
import hashlib
import json
import sys

import hl7
from hl7.mllp import start_hl7_server


def parse_arguments():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--code", default="AA", choices=["AA", "AE"])
    parser.add_argument("--error-text", default="Order number not found")
    parser.add_argument("--record", required=True)
    parser.add_argument("--silent-first", action="store_true", help="never answer the first message (a hung peer)")
    return parser.parse_args()


def field(message, segment, number, component=1, occurrence=1):
    try:
        return message.unescape(message.extract_field(segment, occurrence, number, 1, component))
    except (KeyError, IndexError):
        return ""


def understood(raw):
    message = hl7.parse(raw)
    kind = field(message, "MSH", 9, 1) + "^" + field(message, "MSH", 9, 2)
    seen = {
        "type": kind,
        "controlId": field(message, "MSH", 10),
        "sendingApplication": field(message, "MSH", 3),
        "patientFamily": field(message, "PID", 5, 1),
        "patientGiven": field(message, "PID", 5, 2),
        "mrn": field(message, "PID", 3, 1),
        "edSha256": None,
        "edBytes": None,
        "text": None,
    }
    if kind.startswith("ORM"):
        seen.update(
            placer=field(message, "ORC", 2),
            filler=field(message, "ORC", 3),
            orderControl=field(message, "ORC", 1),
            orderStatus=field(message, "ORC", 5),
            resultStatus="",
        )
    elif kind.startswith("ORU"):
        seen.update(placer=field(message, "OBR", 2), filler=field(message, "OBR", 3), resultStatus=field(message, "OBR", 25))
    else:
        seen.update(
            placer=field(message, "TXA", 14),
            filler=field(message, "TXA", 15),
            document=field(message, "TXA", 12),
            parentDocument=field(message, "TXA", 13),
            resultStatus=field(message, "OBX", 11),
        )
    observations = message.segments("OBX") if any(str(segment[0]) == "OBX" for segment in message) else []
    for number, obx in enumerate(observations, start=1):
        value_type = str(obx[2])
        if value_type == "ED":
            data = base64.b64decode(message.extract_field("OBX", number, 5, 1, 5))
            seen["edSha256"] = hashlib.sha256(data).hexdigest()
            seen["edBytes"] = len(data)
            seen["edType"] = message.extract_field("OBX", number, 5, 1, 2)
        elif value_type in ("FT", "TX"):
            seen["text"] = message.unescape(message.extract_field("OBX", number, 5))
    return seen


def acknowledgement(message, arguments):
    ack = message.create_ack(ack_code=arguments.code)
    if arguments.code == "AA":
        return ack
    return hl7.parse(str(ack) + "\rERR|||204^Unknown key identifier^HL70357|E||||" + arguments.error_text)


async def main():
    arguments = parse_arguments()

    seen = {"count": 0}

    async def answer(reader, writer):
        try:
            while not writer.is_closing():
                message = await reader.readmessage()
                with open(arguments.record, "a", encoding="utf-8") as record:
                    record.write(json.dumps(understood(str(message))) + "\n")
                seen["count"] += 1
                if arguments.silent_first and seen["count"] == 1:
                    continue
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
