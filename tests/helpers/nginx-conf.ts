/**
 * deploy/nginx.conf made runnable by a test, and nothing else changed: the one `listen` moves to a
 * loopback port, the upstream's `server` lines point at the test's instances (their parameters,
 * e.g. max_fails, kept), and the pid and temp files go into the test's own directory. Pure, so the
 * rewriting has its own unit test; it throws when the file no longer has the shape it rewrites,
 * rather than quietly testing something else.
 */
export interface NginxTestSetup {
  /** Loopback port nginx listens on. */
  port: number;
  /** `host:port` of each instance, in the order of the conf's `server` lines. */
  upstreams: string[];
  /** Absolute directory for nginx's pid, temp files and access log. */
  prefix: string;
}

const LISTEN = /\blisten\s+[^;]+;/g;
const UPSTREAM_BLOCK = /(upstream\s+argus\s*\{)([^}]*)(\})/g;
const SERVER_LINE = /^(\s*)server\s+(\S+?)(\s[^;]*)?;/gm;

export function nginxConfForTest(shipped: string, setup: NginxTestSetup): string {
  // Comments go first, so a comment that mentions a directive is never taken for one.
  const conf = shipped.replace(/#.*$/gm, "");
  if (!setup.prefix.startsWith("/")) throw new Error(`nginx prefix must be absolute: ${setup.prefix}`);
  const listens = conf.match(LISTEN) ?? [];
  if (listens.length !== 1) throw new Error(`expected one listen directive in nginx.conf, found ${listens.length}`);
  const blocks = conf.match(UPSTREAM_BLOCK) ?? [];
  if (blocks.length !== 1) throw new Error(`expected one "upstream argus" block in nginx.conf, found ${blocks.length}`);
  let out = conf.replace(LISTEN, `listen 127.0.0.1:${setup.port};`);
  out = out.replace(UPSTREAM_BLOCK, (_block, open: string, body: string, close: string) => {
    const servers = body.match(SERVER_LINE) ?? [];
    if (servers.length !== setup.upstreams.length) {
      throw new Error(`nginx.conf's upstream has ${servers.length} server lines; the test gave ${setup.upstreams.length} instances`);
    }
    let i = 0;
    const rewritten = body.replace(SERVER_LINE, (_line, indent: string, _address: string, params: string | undefined) => `${indent}server ${setup.upstreams[i++]}${params ?? ""};`);
    return `${open}${rewritten}${close}`;
  });
  const http = /^http\s*\{/m;
  if (!http.test(out)) throw new Error("expected an http block in nginx.conf");
  const paths = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((kind) => `  ${kind}_temp_path ${setup.prefix}/${kind}_temp;`);
  out = out.replace(http, (open) => [open, `  access_log ${setup.prefix}/access.log;`, ...paths].join("\n"));
  return `pid ${setup.prefix}/nginx.pid;\n${out}`;
}
