/**
 * A site's system (its CMS) refused or failed a connector's request. Callers handle it the
 * same whatever the connector: the task fails with `details()`, a rollback answers 502.
 */
export class ConnectorError extends Error {
  readonly connector: string;
  readonly status: number | undefined;
  constructor(connector: string, message: string, status?: number) {
    super(message);
    this.name = 'ConnectorError';
    this.connector = connector;
    this.status = status;
  }

  /** What a failed task records about the failure. */
  details(): Record<string, unknown> {
    return { connector: this.connector, http_status: this.status ?? null };
  }
}
