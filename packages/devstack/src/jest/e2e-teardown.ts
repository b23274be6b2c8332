export default async function e2eTeardown(): Promise<void> {}
