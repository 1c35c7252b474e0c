import { route } from "../route-definition.js";
import { ifMatchHeadersSchema } from "../schemas/common.js";
import {
  accessGroupsRequestSchema,
  createdUserSchema,
  createUserRequestSchema,
  outboxQuerySchema,
  outboxSchema,
  passwordResetSchema,
  setSmsMfaRequestSchema,
  technologistListQuerySchema,
  technologistPageSchema,
  toggleUserRequestSchema,
  userContactRequestSchema,
  userListQuerySchema,
  usernameParamsSchema,
  userPageSchema,
  userProfessionalRequestSchema,
  userSchema,
} from "../schemas/users.js";

const tags = ["users"];

/**
 * User administration (PRODUCT.md §1, AUTH.md "Administration", spec §7). Users are addressed by username;
 * the spec's `PUT /users/{id}/access-groups` takes the username as its id. The PUTs need `If-Match` with the
 * user's ETag (`userEtag`): 428 without it, 412 with the current user when stale.
 */
export const userRoutes = {
  listUsers: route({
    method: "GET",
    path: "/api/users",
    summary: "Users, server-paged: search username, name and email; filter by group and enabled; sort",
    tags,
    access: "users:manage",
    querystring: userListQuerySchema,
    response: userPageSchema,
  }),
  getUser: route({
    method: "GET",
    path: "/api/users/:username",
    summary: "A user's details (its updatedAt is also the ETag): one's own, or anyone's with users:manage",
    tags,
    access: "signed-in",
    params: usernameParamsSchema,
    response: userSchema,
  }),
  createUser: route({
    method: "POST",
    path: "/api/users",
    summary: "Creates a user with a temporary password, emailed to them (never in the answer); 409 if taken",
    tags,
    access: "users:manage",
    body: createUserRequestSchema,
    response: createdUserSchema,
    successStatus: 201,
  }),
  setUserAccessGroups: route({
    method: "PUT",
    path: "/api/users/:username/access-groups",
    summary: "Replaces a user's access groups (the last enabled admin keeps the admin group: 409)",
    tags,
    access: "users:manage",
    params: usernameParamsSchema,
    headers: ifMatchHeadersSchema,
    body: accessGroupsRequestSchema,
    response: userSchema,
  }),
  toggleUser: route({
    method: "PUT",
    path: "/api/users/:username/toggle",
    summary: "Enables or disables a user; disabling ends every session at once (never the last enabled admin)",
    tags,
    access: "users:manage",
    params: usernameParamsSchema,
    headers: ifMatchHeadersSchema,
    body: toggleUserRequestSchema,
    response: userSchema,
  }),
  resetUserPassword: route({
    method: "POST",
    path: "/api/users/:username/reset-password",
    summary:
      "The user must reset their password at next sign-in (RESET_REQUIRED) and is signed out; a user who " +
      "never signed in gets a new temporary password by email",
    tags,
    access: "users:manage",
    params: usernameParamsSchema,
    response: passwordResetSchema,
  }),
  setUserSmsMfa: route({
    method: "PUT",
    path: "/api/users/:username/sms-mfa",
    summary: "Turns SMS MFA on (needs a phone number on the account) or off; needs If-Match",
    tags,
    access: "users:manage",
    params: usernameParamsSchema,
    headers: ifMatchHeadersSchema,
    body: setSmsMfaRequestSchema,
    response: userSchema,
  }),
  setUserContact: route({
    method: "PUT",
    path: "/api/users/:username/contact",
    summary:
      "Sets a user's email and phone number (null removes it); a changed value is unverified until the user " +
      "confirms the code sent to it; needs If-Match",
    tags,
    access: "users:manage",
    params: usernameParamsSchema,
    headers: ifMatchHeadersSchema,
    body: userContactRequestSchema,
    response: userSchema,
  }),
  setUserProfessional: route({
    method: "PUT",
    path: "/api/users/:username/professional",
    summary:
      "Sets a user's family and given names, NPI, credentials and board certifications: one's own, or anyone's " +
      "with users:manage; needs If-Match",
    tags,
    access: "signed-in",
    params: usernameParamsSchema,
    headers: ifMatchHeadersSchema,
    body: userProfessionalRequestSchema,
    response: userSchema,
  }),
  resetUserMfa: route({
    method: "POST",
    path: "/api/users/:username/reset-mfa",
    summary: "Removes the user's SMS and authenticator-app MFA and their preference",
    tags,
    access: "users:manage",
    params: usernameParamsSchema,
    response: userSchema,
  }),
  listTechnologists: route({
    method: "GET",
    path: "/api/users/continuous-monitoring/technologists",
    summary: "Enabled technologists (id, username, name) for pickers, by name",
    tags,
    access: "cases:read",
    querystring: technologistListQuerySchema,
    response: technologistPageSchema,
  }),
  listOutbox: route({
    method: "GET",
    path: "/api/outbox",
    summary:
      "Recent messages kept in the outbox because no transport is configured (development); 404 when mail is sent",
    tags,
    access: "users:manage",
    querystring: outboxQuerySchema,
    response: outboxSchema,
  }),
} as const;
