/**
 * Flags every Chromium the service starts takes (report PDFs, rendering): no sandbox where it cannot start (as root, in
 * containers), no GPU, and none of the browser's own traffic (updates, sync, field trials, sign-in).
 */
export function chromiumArgs(extra: readonly string[] = []): string[] {
  return [
    ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
    '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync',
    '--disable-default-apps', '--disable-domain-reliability', '--disable-client-side-phishing-detection', '--metrics-recording-only',
    '--no-first-run', '--no-default-browser-check', '--mute-audio',
    ...extra,
  ];
}
