/** Where to reach a listener on HOST:PORT from this machine: a wildcard address is reached over loopback. */
export function selfUrl(host: string, port: number): string {
  const target = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${target.includes(':') ? `[${target}]` : target}:${port}`;
}
