import { clientRoutes } from "@vigil/contract";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client.js";
import { actorOf } from "../../http/actor.js";
import { registerRoute } from "../../http/register-route.js";
import { readIfMatch, sendEtag } from "../../http/versioning.js";
import {
  archiveClient,
  createClient,
  getClient,
  listClientIds,
  listClients,
  restoreClient,
  updateClient,
} from "./clients-service.js";
import {
  type ContactHooks,
  createContact,
  getContact,
  listContacts,
  removeContact,
  updateContact,
} from "./contacts-service.js";
import { createProtocolRevision, getProtocol, getTransferForm } from "./protocol-service.js";
import { createUsefulLink, listUsefulLinks, removeUsefulLink, updateUsefulLink } from "./useful-links-service.js";

/** Clients, their protocol, contacts and useful links (PRODUCT.md §2). Every versioned answer carries its ETag. */
export function registerClientRoutes(app: FastifyInstance, db: Db, hooks: ContactHooks = {}): void {
  const routes = clientRoutes;

  registerRoute(app, "listClients", routes.listClients, ({ query }) => listClients(db, query));
  registerRoute(app, "listClientIds", routes.listClientIds, () => listClientIds(db));
  registerRoute(app, "getClient", routes.getClient, async ({ params, reply }) => {
    const client = await getClient(db, params.id);
    sendEtag(reply, client.version);
    return client;
  });
  registerRoute(app, "createClient", routes.createClient, async ({ body, principal, request, reply }) => {
    const client = await createClient(db, body, actorOf(principal, request));
    sendEtag(reply, client.version);
    return client;
  });
  registerRoute(app, "updateClient", routes.updateClient, async ({ params, body, principal, request, reply }) => {
    const expected = readIfMatch(request.headers["if-match"]);
    const client = await updateClient(db, params.id, expected, body, actorOf(principal, request));
    sendEtag(reply, client.version);
    return client;
  });
  registerRoute(app, "archiveClient", routes.archiveClient, async ({ params, principal, request, reply }) => {
    const client = await archiveClient(db, params.id, actorOf(principal, request));
    sendEtag(reply, client.version);
    return client;
  });
  registerRoute(app, "restoreClient", routes.restoreClient, async ({ params, principal, request, reply }) => {
    const client = await restoreClient(db, params.id, actorOf(principal, request));
    sendEtag(reply, client.version);
    return client;
  });

  registerRoute(app, "getClientProtocol", routes.getClientProtocol, ({ params }) => getProtocol(db, params.id));
  registerRoute(app, "createProtocolRevision", routes.createProtocolRevision, ({ params, body, principal, request }) =>
    createProtocolRevision(db, params.id, body, actorOf(principal, request), hooks),
  );
  registerRoute(app, "getTransferForm", routes.getTransferForm, ({ params }) => getTransferForm(db, params.id));

  registerRoute(app, "listContacts", routes.listContacts, ({ params }) => listContacts(db, params.id));
  registerRoute(app, "getContact", routes.getContact, async ({ params, reply }) => {
    const contact = await getContact(db, params.contactId);
    sendEtag(reply, contact.version);
    return contact;
  });
  registerRoute(app, "createContact", routes.createContact, async ({ params, body, principal, request, reply }) => {
    const contact = await createContact(db, params.id, body, actorOf(principal, request));
    sendEtag(reply, contact.version);
    return contact;
  });
  registerRoute(app, "updateContact", routes.updateContact, async ({ params, body, principal, request, reply }) => {
    const expected = readIfMatch(request.headers["if-match"]);
    const contact = await updateContact(
      db,
      params.id,
      params.contactId,
      expected,
      body,
      actorOf(principal, request),
      hooks,
    );
    sendEtag(reply, contact.version);
    return contact;
  });
  registerRoute(app, "removeContact", routes.removeContact, async ({ params, principal, request }) => {
    await removeContact(db, params.id, params.contactId, actorOf(principal, request), hooks);
    return null;
  });

  registerRoute(app, "listUsefulLinks", routes.listUsefulLinks, ({ params }) => listUsefulLinks(db, params.id));
  registerRoute(
    app,
    "createUsefulLink",
    routes.createUsefulLink,
    async ({ params, body, principal, request, reply }) => {
      const link = await createUsefulLink(db, params.id, body, actorOf(principal, request));
      sendEtag(reply, link.version);
      return link;
    },
  );
  registerRoute(
    app,
    "updateUsefulLink",
    routes.updateUsefulLink,
    async ({ params, body, principal, request, reply }) => {
      const expected = readIfMatch(request.headers["if-match"]);
      const link = await updateUsefulLink(db, params.id, params.linkId, expected, body, actorOf(principal, request));
      sendEtag(reply, link.version);
      return link;
    },
  );
  registerRoute(app, "removeUsefulLink", routes.removeUsefulLink, async ({ params, principal, request }) => {
    await removeUsefulLink(db, params.id, params.linkId, actorOf(principal, request));
    return null;
  });
}
