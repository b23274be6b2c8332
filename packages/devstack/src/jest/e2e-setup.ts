export default async function e2eSetup(): Promise<void> {}
