/**
 * A push URL as someone who is not an administrator sees it: webhook receivers often take their
 * token in the query string (`?token=…`), and `view` is given widely (every GitHub sign-in may
 * have it), so the whole query is replaced. The stored URL has no fragment or credentials (they
 * are refused when it is set), so its first `?` starts the query.
 */
export function redactedUrl(url: string): string {
  const query = url.indexOf('?');
  return query < 0 ? url : `${url.slice(0, query)}?redacted`;
}
