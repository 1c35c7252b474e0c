import type {
  CreateInterfaceProfileRevision,
  Hl7ResultStyle,
  InterfaceProfileContent,
  InterfaceProfileRevision,
} from "@vigil/contract";

/** The profile form's values: every text as typed, the port as text; field paths are the request body's. */
export type ProfileFormValues = {
  baseRevision: number | null;
  enabled: boolean;
  sendingApplication: string;
  sendingFacility: string;
  mrnAssigningAuthority: string;
  visitNumberSource: InterfaceProfileContent["visitNumberSource"];
  receivingApplication: string;
  receivingFacility: string;
  destination: { host: string; port: string; tls: boolean; caCertificate: string };
  resultStyle: Hl7ResultStyle;
  hl7Version: InterfaceProfileContent["hl7Version"];
  orderStatusUpdates: boolean;
  changeNote: string;
};

export const resultStyleLabels: Record<Hl7ResultStyle, string> = {
  "ORU^R01": "ORU^R01 — a result: the report PDF (OBX type ED) and the impression as text",
  "MDM^T02": "MDM^T02 — a document: TXA and the report PDF (OBX type ED)",
};

export const visitNumberSourceLabels: Record<InterfaceProfileContent["visitNumberSource"], string> = {
  "PV1-19": "PV1-19 (visit number)",
  "PID-18": "PID-18 (patient account number)",
};

/** The form prefilled from a revision (the next one builds on it), or empty for a client's first profile. */
export function profileFormValues(current: InterfaceProfileRevision | null): ProfileFormValues {
  const destination = current?.destination ?? null;
  return {
    baseRevision: current?.revision ?? null,
    enabled: current?.enabled ?? true,
    sendingApplication: current?.sendingApplication ?? "",
    sendingFacility: current?.sendingFacility ?? "",
    mrnAssigningAuthority: current?.mrnAssigningAuthority ?? "",
    visitNumberSource: current?.visitNumberSource ?? "PV1-19",
    receivingApplication: current?.receivingApplication ?? "",
    receivingFacility: current?.receivingFacility ?? "",
    destination: {
      host: destination?.host ?? "",
      port: destination ? String(destination.port) : "",
      tls: destination?.tls ?? false,
      caCertificate: destination?.caCertificate ?? "",
    },
    resultStyle: current?.resultStyle ?? "ORU^R01",
    hl7Version: current?.hl7Version ?? "2.5.1",
    orderStatusUpdates: current?.orderStatusUpdates ?? false,
    changeNote: "",
  };
}

/**
 * Form values → the request body. No host and no port: the hospital takes no results by interface (null). A blank
 * port beside a host is NaN, so the schema says it must be a number rather than dropping the destination.
 */
export function toProfileInput(values: ProfileFormValues): CreateInterfaceProfileRevision {
  const { host, port, tls, caCertificate } = values.destination;
  const noDestination = host.trim() === "" && port.trim() === "";
  return {
    baseRevision: values.baseRevision,
    enabled: values.enabled,
    sendingApplication: values.sendingApplication,
    sendingFacility: values.sendingFacility,
    mrnAssigningAuthority: values.mrnAssigningAuthority,
    visitNumberSource: values.visitNumberSource,
    receivingApplication: values.receivingApplication,
    receivingFacility: values.receivingFacility,
    destination: noDestination
      ? null
      : {
          host,
          port: port.trim() === "" ? Number.NaN : Number(port),
          tls,
          caCertificate: tls && caCertificate.trim() !== "" ? caCertificate : null,
        },
    resultStyle: values.resultStyle,
    hl7Version: values.hl7Version,
    orderStatusUpdates: values.orderStatusUpdates,
    changeNote: values.changeNote.trim() === "" ? null : values.changeNote,
  };
}

/** "engine.example.org:6661 over TLS (its own CA)", or the absence said plainly. */
export function describeDestination(destination: InterfaceProfileContent["destination"]): string {
  if (!destination) return "None: results are not sent by interface";
  const security = destination.tls
    ? ` over TLS (${destination.caCertificate ? "the hospital's CA" : "the system's trusted CAs"})`
    : ", plain TCP (no TLS)";
  return `${destination.host}:${destination.port}${security}`;
}
