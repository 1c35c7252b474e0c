import { type ClientInfo, type DatasetContext, day, hour, type Stage } from "./dataset-context.js";

/** A case before it is written: its stage, when it was opened and for which client. */
export type PlannedCase = { stage: Stage; createdAt: number; client: ClientInfo };

/**
 * Cases: stages, time spans, and how many time logs each gets (exactly the target in all). The plan is in the order
 * the cases were opened, which is the order of their case numbers.
 */
export function planCases(
  context: DatasetContext,
  clientInfos: ClientInfo[],
): { plannedCases: PlannedCase[]; logCounts: Int16Array } {
  const { random, now } = context;
  const caseCount = context.scaled(100_000, 50);
  const stagePlan: [Stage, number][] = [
    ["intake", 0.004],
    ["monitoring", 0.006],
    ["preview", 0.008],
    ["reviewed", 0.012],
  ];
  const stages: Stage[] = [];
  for (const [stage, share] of stagePlan) {
    for (let index = 0; index < Math.max(2, Math.round(share * caseCount)); index++) stages.push(stage);
  }
  while (stages.length < caseCount) stages.push("closed");
  const opened = (stage: Stage): number => {
    switch (stage) {
      case "intake":
        return now - random.between(0.2, 36) * hour;
      case "monitoring":
        return now - random.between(3, 5 * 24) * hour;
      case "preview":
        return now - random.between(6, 14) * day;
      case "reviewed":
        return now - random.between(8, 30) * day;
      case "closed":
        return now - random.between(25, 730) * day;
    }
  };
  const totalWeight = clientInfos.reduce((sum, client) => sum + client.weight, 0);
  const pickClient = (stage: Stage): ClientInfo => {
    for (;;) {
      let target = random.next() * totalWeight;
      for (const client of clientInfos) {
        target -= client.weight;
        if (target <= 0) {
          // The archived client has only closed cases; inactive clients keep their old ones.
          if (client.archived && stage !== "closed") break;
          return client;
        }
      }
    }
  };
  const plannedCases: PlannedCase[] = stages.map((stage) => ({
    stage,
    createdAt: opened(stage),
    client: pickClient(stage),
  }));
  plannedCases.sort((left, right) => left.createdAt - right.createdAt);

  const timeLogTarget = context.scaled(1_000_000, 100);
  const logCounts = new Int16Array(caseCount);
  const withLogs: number[] = [];
  plannedCases.forEach((entry, index) => {
    if (entry.stage !== "intake") withLogs.push(index);
  });
  const mean = timeLogTarget / withLogs.length;
  let assigned = 0;
  for (const index of withLogs) {
    const count = Math.max(3, Math.round(mean + random.between(-0.6, 0.6) * mean));
    logCounts[index] = count;
    assigned += count;
  }
  while (assigned !== timeLogTarget) {
    const index = random.pick(withLogs);
    const count = logCounts[index] as number;
    if (assigned < timeLogTarget) {
      logCounts[index] = count + 1;
      assigned++;
    } else if (count > 3) {
      logCounts[index] = count - 1;
      assigned--;
    }
  }
  return { plannedCases, logCounts };
}
