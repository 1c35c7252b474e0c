import { randomUUID } from "node:crypto";
import { normaliseUsername } from "../../apps/server/src/identity/users-repository.js";
import { type DatasetContext, day, type Person } from "./dataset-context.js";
import { specs } from "./table-specs.js";
import { firstNames, lastNames } from "./vocabulary.js";

/** The users by the group the later steps draw them from. */
export type Population = {
  people: Person[];
  technologists: Person[];
  coordinators: Person[];
  reviewers: Person[];
  billers: Person[];
  /** Who opens a case and so leaves a patient-data read. */
  staff: Person[];
};

/** Users: 200 with groups (most are technologists); the bench administrator is one of them. */
export function generateUsers(context: DatasetContext): Population {
  const { options, random, now, out } = context;
  const userCount = context.scaled(200, 12);
  const groupPlan: { groups: string[]; share: number }[] = [
    { groups: ["admin"], share: 0.02 },
    { groups: ["admin", "developer"], share: 0.01 },
    { groups: ["coordinator"], share: 0.08 },
    { groups: ["coordinator", "technologist"], share: 0.02 },
    { groups: ["reviewer"], share: 0.1 },
    { groups: ["billing"], share: 0.05 },
    { groups: ["developer"], share: 0.02 },
  ];
  const people: Person[] = [];
  const userRow = (person: Person, createdAt: number) =>
    out.row(specs.users, [
      person.sub,
      person.username,
      normaliseUsername(person.username),
      `${person.username}@vigil-bench.example`,
      true,
      null,
      person.name,
      options.passwordHash,
      "CONFIRMED",
      true,
      person.groups,
      new Date(createdAt),
      new Date(createdAt),
    ]);
  const bench: Person = {
    sub: randomUUID(),
    username: options.benchUser.username,
    name: options.benchUser.name,
    groups: ["admin"],
  };
  people.push(bench);
  userRow(bench, now - 800 * day);
  let planned = 1;
  for (const plan of groupPlan) {
    const count = Math.max(1, Math.round(plan.share * userCount));
    for (let index = 0; index < count && planned < userCount; index++, planned++) {
      const first = random.pick(firstNames);
      const last = random.pick(lastNames);
      const person: Person = {
        sub: randomUUID(),
        username: `${plan.groups.join("-")}-${index + 1}`,
        name: plan.groups.includes("reviewer") ? `Dr. ${first} ${last}` : `${first} ${last}`,
        groups: plan.groups,
      };
      people.push(person);
      userRow(person, now - random.between(100, 800) * day);
    }
  }
  for (let index = 0; planned < userCount; index++, planned++) {
    const person: Person = {
      sub: randomUUID(),
      username: `technologist-${index + 1}`,
      name: `${random.pick(firstNames)} ${random.pick(lastNames)}`,
      groups: ["technologist"],
    };
    people.push(person);
    userRow(person, now - random.between(30, 800) * day);
  }
  const inGroup = (group: string) => people.filter((person) => person.groups.includes(group));
  const technologists = inGroup("technologist");
  const coordinators = inGroup("coordinator");
  const reviewers = inGroup("reviewer");
  const billers = inGroup("billing");
  const staff = [...coordinators, ...technologists, ...reviewers];
  return { people, technologists, coordinators, reviewers, billers, staff };
}
