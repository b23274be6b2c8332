import { deleteRedisPrefix } from "../reset-database";

export default async function e2eTeardown(): Promise<void> {
  const stack = globalThis.__E2E_STACK__;
  if (!stack) return;
  await stack.stop();
  await deleteRedisPrefix(stack.env.REDIS_URL!, stack.env.REDIS_PREFIX!);
}
