import type { ProtocolContent } from "@vigil/contract";

/**
 * The demo clients as literals: who they are, the protocol, contacts and useful link each starts with, and the
 * hourly rates billing set for them. `seed-demo-data.ts` writes them; nothing here touches the database.
 */

export const demoClients = [
  {
    name: "St. Mary's Regional Medical Center",
    code: "SMRMC",
    timezone: "America/New_York",
    phone: "+16175550100",
    city: "Boston",
    region: "MA",
  },
  {
    name: "Lakeside Children's Hospital",
    code: "LCH",
    timezone: "America/Chicago",
    phone: "+13125550100",
    city: "Chicago",
    region: "IL",
  },
  {
    name: "Pacific Neurology Institute",
    code: "PNI",
    timezone: "America/Los_Angeles",
    phone: "+15035550100",
    city: "Portland",
    region: "OR",
  },
];

/**
 * The transfer form a referring ICU fills in to send a patient into monitoring: the same questions at every
 * demo client, so the differences between their protocols stay in the thresholds and instructions.
 */
export const demoTransferForm: ProtocolContent["transferForm"] = {
  title: "Transfer into continuous EEG monitoring",
  instructions:
    "Complete every required field and send it with the order. A technologist calls the unit within one hour " +
    "to arrange set-up. For a STAT study, also page the on-call EEG technologist.",
  fields: [
    { key: "patientName", label: "Patient name (last, first)", type: "text", required: true },
    { key: "mrn", label: "Medical record number (MRN)", type: "text", required: true },
    { key: "dateOfBirth", label: "Date of birth", type: "date", required: true },
    { key: "referringPhysician", label: "Referring physician", type: "text", required: true },
    {
      key: "referringPhysicianPhone",
      label: "Referring physician phone",
      type: "phone",
      required: true,
      help: "A number that reaches the physician 24/7, in international form (+1…).",
    },
    {
      key: "indication",
      label: "Indication for monitoring",
      type: "select",
      required: true,
      options: [
        "Seizures / suspected non-convulsive seizures",
        "Altered mental status of unclear cause",
        "Post-cardiac arrest (prognostication)",
        "Status epilepticus (treatment monitoring)",
        "Subarachnoid hemorrhage (vasospasm)",
        "Traumatic brain injury",
        "Characterisation of spells",
        "Other (describe in notes)",
      ],
    },
    {
      key: "anticonvulsants",
      label: "Current anticonvulsants and sedation (drug, dose, last given)",
      type: "textarea",
      required: false,
    },
    {
      key: "isolationPrecautions",
      label: "Isolation precautions",
      type: "select",
      required: true,
      options: ["None", "Contact", "Droplet", "Airborne", "Contact + droplet", "Enteric / C. difficile"],
    },
    { key: "bedUnit", label: "Unit and bed", type: "text", required: true, help: "e.g. Neuro ICU, bed 12" },
  ],
};

export type DemoClientExtras = {
  protocol: Omit<ProtocolContent, "transferForm" | "criticalNotification" | "reportRecipients"> & {
    notify: string;
    withinMinutes: number;
  };
  contacts: {
    name: string;
    role: string;
    email: string;
    phone: string;
    isPrimary: boolean;
    notifyOnCritical: boolean;
  }[];
  link: { title: string; url: string; description: string };
};

/** Protocol revision 1, two contacts and a useful link for each demo client (same order as demoClients). */
export const demoClientExtras: DemoClientExtras[] = [
  {
    protocol: {
      instructions:
        "Adult neuro ICU. Apply a full 10–20 montage with collodion for studies expected to last over 24 hours. " +
        "Check impedances at set-up and every 12 hours; re-gel or re-apply any electrode above threshold. " +
        "Push-button events are reviewed within the hour. Skin checks under the electrodes every 24 hours.",
      impedanceThresholdKohm: 10,
      impedanceCheckIntervalHours: 12,
      reviewTurnaroundHours: 12,
      statAcknowledgeMinutes: 30,
      notify: "Neuro ICU charge nurse, then the on-call neurologist",
      withinMinutes: 15,
    },
    contacts: [
      {
        name: "Dr. Maria Alvarez",
        role: "Director, Neurocritical Care",
        email: "malvarez@smrmc.example",
        phone: "+16175550142",
        isPrimary: true,
        notifyOnCritical: true,
      },
      {
        name: "James O'Connor, RN",
        role: "Neuro ICU charge nurse",
        email: "joconnor@smrmc.example",
        phone: "+16175550187",
        isPrimary: false,
        notifyOnCritical: true,
      },
    ],
    link: {
      title: "Neuro ICU bed board",
      url: "https://intranet.smrmc.example/neuro-icu/bed-board",
      description: "Current bed assignments; check before calling the unit.",
    },
  },
  {
    protocol: {
      instructions:
        "Pediatric ICU and epilepsy monitoring unit. Use age-appropriate electrode placement and paste, not " +
        "collodion, for patients under 2 years. Impedances every 8 hours; fragile skin: skin check every 12 " +
        "hours. Parents may press the event button; ask the bedside nurse to annotate.",
      impedanceThresholdKohm: 5,
      impedanceCheckIntervalHours: 8,
      reviewTurnaroundHours: 8,
      statAcknowledgeMinutes: 60,
      notify: "PICU fellow on call",
      withinMinutes: 10,
    },
    contacts: [
      {
        name: "Dr. Kenji Watanabe",
        role: "Pediatric epileptologist",
        email: "kwatanabe@lakeside-childrens.example",
        phone: "+13125550123",
        isPrimary: true,
        notifyOnCritical: true,
      },
      {
        name: "Priya Natarajan",
        role: "EEG lab manager",
        email: "pnatarajan@lakeside-childrens.example",
        phone: "+13125550168",
        isPrimary: false,
        notifyOnCritical: false,
      },
    ],
    link: {
      title: "PICU admission guidelines",
      url: "https://policies.lakeside-childrens.example/picu/admission",
      description: "Who may be admitted to cEEG from the PICU and the EMU.",
    },
  },
  {
    protocol: {
      instructions:
        "Ambulatory and EMU studies. Ambulatory patients keep a paper event diary; scan it into the case notes " +
        "at takedown. EMU video studies: confirm the camera covers the whole bed at every shift change. " +
        "Impedances at set-up and daily.",
      impedanceThresholdKohm: 10,
      impedanceCheckIntervalHours: 24,
      reviewTurnaroundHours: 24,
      statAcknowledgeMinutes: 45,
      notify: "Attending neurologist of record",
      withinMinutes: 30,
    },
    contacts: [
      {
        name: "Dr. Samuel Reyes",
        role: "Medical director, EMU",
        email: "sreyes@pacificneuro.example",
        phone: "+15035550110",
        isPrimary: true,
        notifyOnCritical: true,
      },
      {
        name: "Helen Park",
        role: "Scheduling coordinator",
        email: "hpark@pacificneuro.example",
        phone: "+15035550135",
        isPrimary: false,
        notifyOnCritical: false,
      },
    ],
    link: {
      title: "EMU scheduling calendar",
      url: "https://calendar.pacificneuro.example/emu",
      description: "Book and move EMU admissions.",
    },
  },
];

/**
 * Hourly rates, by month of each client's own calendar counted back from now (`client` indexes demoClients,
 * `monthOffset` is months from its current month): St. Mary's set one rate three months ago that every later month
 * inherits; Pacific Neurology has its own rate for each recent month, the current one raised once (a second version,
 * with its reason); Lakeside has only next month's rate, set ahead, so the months with its hours have no rate at all
 * and are flagged on the billing overview. Each entry's rates are its versions, oldest first.
 */
export const demoRateChanges: {
  client: number;
  monthOffset: number;
  rates: { hourlyRate: string; reason: string | null }[];
}[] = [
  { client: 0, monthOffset: -3, rates: [{ hourlyRate: "145.00", reason: null }] },
  { client: 1, monthOffset: 1, rates: [{ hourlyRate: "152.50", reason: null }] },
  { client: 2, monthOffset: -2, rates: [{ hourlyRate: "160.00", reason: null }] },
  { client: 2, monthOffset: -1, rates: [{ hourlyRate: "160.00", reason: null }] },
  {
    client: 2,
    monthOffset: 0,
    rates: [
      { hourlyRate: "160.00", reason: null },
      { hourlyRate: "165.00", reason: "Annual increase agreed in the service contract" },
    ],
  },
];
