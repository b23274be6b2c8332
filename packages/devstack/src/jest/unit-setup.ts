export default async function unitSetup(): Promise<void> {}
