/** Adds credits to a sandbox's balance through its control route (authenticated like its API). */
export async function sandboxTopUp(sandbox: { baseUrl: string; apiKey: string }, credits: number): Promise<void> {
  const response = await fetch(`${sandbox.baseUrl}/__sandbox/top-up`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': sandbox.apiKey },
    body: JSON.stringify({ credits }),
  });
  if (!response.ok) throw new Error(`The sandbox refused the top-up (HTTP ${response.status}).`);
}
