import { routes } from "@vigil/contract";
import type { FastifyInstance } from "fastify";
import type { Config } from "../../config.js";
import type { Database } from "../../db/client.js";
import { actorOf } from "../../http/actor.js";
import { registerRoute } from "../../http/register-route.js";
import type { TokenService } from "../../identity/token-service.js";
import type { MessageService } from "../../messaging/message-service.js";
import type { CheckContext } from "./integration-check.js";
import { listIntegrationChecks, runIntegrationCheck } from "./integration-service.js";
import { getJobQueue, retryJob } from "./job-queue-service.js";

/** The live self-checks and the job queue. The checks need the app's own token and message services, not copies. */
export function registerIntegrationRoutes(
  app: FastifyInstance,
  database: Database,
  config: Config,
  services: { tokens: TokenService; messages: MessageService; jobKinds: CheckContext["jobKinds"] },
): void {
  const context = { database, config, ...services };

  registerRoute(app, "listIntegrationChecks", routes.listIntegrationChecks, async () => listIntegrationChecks());

  registerRoute(app, "runIntegrationCheck", routes.runIntegrationCheck, async ({ params, request }) => {
    const result = await runIntegrationCheck(context, params.check);
    // A failing check is what an operator comes to this page for; the log keeps it for whoever looks later.
    if (result.status === "fail") {
      request.log.warn({ check: result.id, summary: result.summary }, "integration check failed");
    }
    return result;
  });

  registerRoute(app, "getJobQueue", routes.getJobQueue, () => getJobQueue(database.db, services.jobKinds));
  registerRoute(app, "retryJob", routes.retryJob, ({ params, principal, request }) =>
    retryJob(database.db, params.id, actorOf(principal, request)),
  );
}
