import { z } from "zod";
import { accessGroupSchema } from "../access.js";

export const usernameSchema = z
  .string()
  .trim()
  .min(1, "Username cannot be empty")
  .max(128)
  .regex(/^[\p{L}\p{M}\p{S}\p{N}\p{P}]+$/u, "Username may not contain spaces");

export const userStatusSchema = z.enum(["FORCE_CHANGE_PASSWORD", "CONFIRMED", "RESET_REQUIRED"]);

export const userSchema = z.object({
  username: z.string(),
  sub: z.uuid(),
  email: z.string(),
  emailVerified: z.boolean(),
  phoneNumber: z.string().nullable(),
  phoneNumberVerified: z.boolean(),
  name: z.string(),
  isEnabled: z.boolean(),
  status: userStatusSchema,
  groups: z.array(accessGroupSchema),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type User = z.infer<typeof userSchema>;

export const usernameParamsSchema = z.object({ username: usernameSchema });
