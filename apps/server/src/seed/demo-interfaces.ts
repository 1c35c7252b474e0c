import type { InterfaceProfileContent } from "@vigil/contract";

/**
 * The demo's hospital interface as literals: St. Mary's (the first demo client, index 0) takes orders from its Epic
 * over HL7 v2. Its messages carry MSH-3 "EPIC" and MSH-4 "SMRMC", and its MRNs the assigning authority
 * "SMRMC-MRN" (PID-3.4). No destination: a demo has no hospital to send results to, and a destination nothing
 * listens on would leave every signed demo report's result message failing; the README says how to add
 * 127.0.0.1:2576 with a python3-hl7 listener. `seed-demo-data.ts` writes it as revision 1.
 */
export const demoInterfaceProfile: { client: number; content: InterfaceProfileContent } = {
  client: 0,
  content: {
    enabled: true,
    sendingApplication: "EPIC",
    sendingFacility: "SMRMC",
    mrnAssigningAuthority: "SMRMC-MRN",
    visitNumberSource: "PV1-19",
    receivingApplication: "EPICCARE",
    receivingFacility: "SMRMC",
    destination: null,
    resultStyle: "ORU^R01",
    hl7Version: "2.5.1",
    orderStatusUpdates: false,
  },
};
