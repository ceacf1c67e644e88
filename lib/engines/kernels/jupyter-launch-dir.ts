import path from "node:path";

/**
 * Where a managed jupyter-server keeps the files of its own launch: connection files and ipc
 * sockets, token, HOME. Each launch empties them first, as what a previous launch left is stale.
 *
 * Instances that share a data dir (scaled out on one host, each with its own jupyter-server) must
 * not share these: one instance's launch emptied the directory the others' kernels had their
 * sockets in, and an emptying that met another server writing there failed the launch
 * (ENOTEMPTY), leaving that instance with no kernels at all. Such instances have fixed ids
 * (ARGUS_INSTANCE_ID), so each gets a directory of its own, the same again after a restart. A lone
 * instance, whose id is made at each start, keeps the one directory it always had.
 */
export function jupyterLaunchDir(jupyterDir: string, fixedInstanceId: string | null): string {
  return fixedInstanceId ? path.join(jupyterDir, "instances", fixedInstanceId) : jupyterDir;
}
