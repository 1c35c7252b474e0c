import type { AccessGroup, CasePriority, StudyType } from "@vigil/contract";

/**
 * The demo cases as literals (one per stage or so, with the patient each was opened for) and the names of the demo
 * users. `seed-cases.ts` writes them with the workflow that brought each to its stage.
 */

export type DemoCase = {
  client: number;
  studyType: StudyType;
  hasVideo: boolean;
  priority: CasePriority;
  stage: "intake" | "monitoring" | "preview" | "reviewed" | "closed";
  /** Hours before now the case was opened; the workflow's steps follow at fixed offsets. */
  openedHoursAgo: number;
  technologistAssigned: boolean;
  patient: {
    mrn: string;
    firstName: string;
    lastName: string;
    dateOfBirth: string;
    sex: "female" | "male";
    unit: string;
    room: string;
    bed: string;
    referringPhysician: string;
    indication: string;
    medications: string;
  };
};

export const demoCases: DemoCase[] = [
  {
    client: 0,
    studyType: "icu-ceeg",
    hasVideo: true,
    priority: "stat",
    stage: "intake",
    openedHoursAgo: 1,
    technologistAssigned: false,
    patient: {
      mrn: "SM-448120",
      firstName: "Margaret",
      lastName: "Okafor",
      dateOfBirth: "1957-03-14",
      sex: "female",
      unit: "Neuro ICU",
      room: "4",
      bed: "A",
      referringPhysician: "Dr. Alan Pierce (Neurocritical Care)",
      indication: "Altered mental status after cardiac arrest; rule out non-convulsive seizures.",
      medications: "Propofol infusion; levetiracetam 1 g IV q12h",
    },
  },
  {
    client: 1,
    studyType: "emu-video",
    hasVideo: true,
    priority: "routine",
    stage: "intake",
    openedHoursAgo: 20,
    technologistAssigned: true,
    patient: {
      mrn: "LCH-0093381",
      firstName: "Ethan",
      lastName: "Morales",
      dateOfBirth: "2014-09-02",
      sex: "male",
      unit: "Epilepsy Monitoring Unit",
      room: "12",
      bed: "1",
      referringPhysician: "Dr. Priya Natarajan (Pediatric Neurology)",
      indication: "Characterise staring spells; pre-surgical evaluation.",
      medications: "Lamotrigine 75 mg BID",
    },
  },
  {
    client: 0,
    studyType: "icu-ceeg",
    hasVideo: true,
    priority: "routine",
    stage: "monitoring",
    openedHoursAgo: 30,
    technologistAssigned: true,
    patient: {
      mrn: "SM-447902",
      firstName: "Robert",
      lastName: "Lindqvist",
      dateOfBirth: "1949-11-27",
      sex: "male",
      unit: "Surgical ICU",
      room: "9",
      bed: "B",
      referringPhysician: "Dr. Alan Pierce (Neurocritical Care)",
      indication: "Subarachnoid haemorrhage day 5; monitor for delayed cerebral ischaemia and seizures.",
      medications: "Nimodipine 60 mg q4h; levetiracetam 500 mg BID",
    },
  },
  {
    client: 2,
    studyType: "ambulatory",
    hasVideo: false,
    priority: "routine",
    stage: "monitoring",
    openedHoursAgo: 50,
    technologistAssigned: true,
    patient: {
      mrn: "HV-220871",
      firstName: "Aisha",
      lastName: "Rahman",
      dateOfBirth: "1991-06-18",
      sex: "female",
      unit: "Home",
      room: "",
      bed: "",
      referringPhysician: "Dr. Mark Ellison (Neurology clinic)",
      indication: "Differentiate epileptic from non-epileptic events; routine EEG non-diagnostic.",
      medications: "None",
    },
  },
  {
    client: 1,
    studyType: "icu-ceeg",
    hasVideo: true,
    priority: "stat",
    stage: "preview",
    openedHoursAgo: 60,
    technologistAssigned: true,
    patient: {
      mrn: "LCH-0091127",
      firstName: "Sofia",
      lastName: "Kowalski",
      dateOfBirth: "2019-01-30",
      sex: "female",
      unit: "PICU",
      room: "3",
      bed: "A",
      referringPhysician: "Dr. Priya Natarajan (Pediatric Neurology)",
      indication: "Febrile status epilepticus; monitor response to treatment.",
      medications: "Fosphenytoin; midazolam infusion weaned",
    },
  },
  {
    client: 2,
    studyType: "emu-video",
    hasVideo: true,
    priority: "routine",
    stage: "reviewed",
    openedHoursAgo: 120,
    technologistAssigned: true,
    patient: {
      mrn: "HV-219554",
      firstName: "Daniel",
      lastName: "Brooks",
      dateOfBirth: "1978-08-09",
      sex: "male",
      unit: "Epilepsy Monitoring Unit",
      room: "2",
      bed: "1",
      referringPhysician: "Dr. Mark Ellison (Neurology clinic)",
      indication: "Medication withdrawal to capture typical events for classification.",
      medications: "Carbamazepine tapered per protocol",
    },
  },
  {
    client: 0,
    studyType: "ambulatory",
    hasVideo: false,
    priority: "routine",
    stage: "closed",
    openedHoursAgo: 240,
    technologistAssigned: true,
    patient: {
      mrn: "SM-440315",
      firstName: "Helen",
      lastName: "Nakamura",
      dateOfBirth: "1966-04-21",
      sex: "female",
      unit: "Home",
      room: "",
      bed: "",
      referringPhysician: "Dr. Alan Pierce (Neurology clinic)",
      indication: "Quantify seizure frequency before medication change.",
      medications: "Valproate 500 mg BID",
    },
  },
];

/** The display name of the demo user of each access group (whose username is the group). */
export const demoNames: Record<AccessGroup, string> = {
  admin: "Avery Admin",
  coordinator: "Casey Coordinator",
  technologist: "Taylor Technologist",
  reviewer: "Dr. Riley Reviewer",
  billing: "Blake Billing",
  developer: "Devon Developer",
};
