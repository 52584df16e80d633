import { API_PATHS } from '@common/api/paths';
import type { ProjectKind } from '@common/composition';

/** Where a request body goes on the service. */
export function endpointFor(target: ProjectKind): string {
  return target === 'avatar-video' ? API_PATHS.avatarVideoCreate : API_PATHS.talkingAvatarCreate;
}

/** Quotes text for a POSIX shell's single quotes. */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * A curl command for people who submit from their own backend. The key is a shell variable, never a
 * real secret: the studio does not hand credentials to the renderer at all.
 */
export function curlCommand(target: ProjectKind, body: unknown, baseUrl: string | null): string {
  const base = (baseUrl ?? '$STUDIO_BASE_URL').replace(/\/+$/, '');
  const url = `${base}${endpointFor(target)}`;
  return [
    `curl -X POST ${baseUrl ? shellQuote(url) : `"${url}"`} \\`,
    `  -H "x-api-key: $STUDIO_API_KEY" \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  --data-raw ${shellQuote(JSON.stringify(body))}`,
  ].join('\n');
}
