// The host a socket connects to for a URL: the suite's HTTP layer and observe's proxy both connect
// to a target named by URL.

/**
 * The host to connect to for a URL: an IPv6 literal without the brackets the URL writes it in
 * (`new URL("http://[::1]:4521").hostname` is `[::1]`, which a resolver looks up as a name).
 */
export function connectHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}
