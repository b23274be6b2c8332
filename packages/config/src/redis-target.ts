/** One Redis Cluster node a client starts from; it learns the rest of the cluster from any of them. */
export interface RedisNode {
  host: string;
  port: number;
}

/**
 * Where the service's Redis is: one server (`url`), or a Redis Cluster (`cluster`: the nodes to start from and
 * the credentials every node shares). `url` is what the operator gave, for messages; never a client's address
 * in cluster mode.
 */
export interface RedisTarget {
  url: string;
  cluster: { nodes: RedisNode[]; username?: string; password?: string; tls: boolean } | null;
}

const CLUSTER_URL = /^(rediss?)\+cluster:\/\/(?:([^@/]*)@)?([^/?#]+)\/?$/i;

function parseNodes(list: string, problems: string[], what: string): RedisNode[] {
  const nodes: RedisNode[] = [];
  for (const item of list
    .split(",")
    .map((n) => n.trim())
    .filter(Boolean)) {
    const m = /^(?:\[([^\]]+)\]|([^:\s[\]]+)):(\d{1,5})$/.exec(item);
    const port = Number(m?.[3]);
    if (!m || !(port >= 1 && port <= 65535)) problems.push(`${what}: "${item}" is not host:port`);
    else nodes.push({ host: m[1] ?? m[2]!, port });
  }
  if (!nodes.length && !problems.length) problems.push(`${what}: no node given`);
  return nodes;
}

/**
 * REDIS_URL (`redis://`, `rediss://`, or `redis+cluster://[user:password@]host:port,host:port` for a cluster) and
 * REDIS_CLUSTER_NODES (`host:port,…`: a cluster, with credentials and TLS from REDIS_URL when it is given too).
 */
export function parseRedisTarget(
  url: string | undefined,
  clusterNodes: string | undefined,
  problems: string[],
): RedisTarget {
  const cluster = url ? CLUSTER_URL.exec(url) : null;
  if (cluster) {
    const [, scheme, auth, hosts] = cluster;
    // As in any URL: user:password, :password, or a user alone.
    const [username, password] = auth
      ? auth.includes(":")
        ? [auth.slice(0, auth.indexOf(":")), auth.slice(auth.indexOf(":") + 1)]
        : [auth, undefined]
      : [];
    if (clusterNodes)
      problems.push(
        "REDIS_CLUSTER_NODES and a redis+cluster:// REDIS_URL both name the cluster's nodes: give one of them",
      );
    return {
      url: url!,
      cluster: {
        nodes: parseNodes(hosts!, problems, "REDIS_URL"),
        username: username ? decodeURIComponent(username) : undefined,
        password: password ? decodeURIComponent(password) : undefined,
        tls: scheme!.toLowerCase() === "rediss",
      },
    };
  }
  if (clusterNodes) {
    // REDIS_URL beside the nodes only brings the credentials and TLS; its host is not a node to start from.
    let base: URL | null = null;
    if (url) {
      try {
        base = new URL(url);
      } catch {
        problems.push("REDIS_URL is not a URL");
      }
    }
    const nodes = parseNodes(clusterNodes, problems, "REDIS_CLUSTER_NODES");
    return {
      url: url ?? `redis+cluster://${clusterNodes}`,
      cluster: {
        nodes,
        username: base?.username ? decodeURIComponent(base.username) : undefined,
        password: base?.password ? decodeURIComponent(base.password) : undefined,
        tls: base?.protocol === "rediss:",
      },
    };
  }
  if (!url) problems.push("REDIS_URL is required (or REDIS_CLUSTER_NODES for a Redis Cluster)");
  else if (!/^rediss?:\/\//i.test(url))
    problems.push("REDIS_URL must start with redis://, rediss:// or redis+cluster://");
  return { url: url ?? "", cluster: null };
}
