/**
 * On a single machine `git pull && npm run build` is the whole deploy: after the
 * running server switches to another build (or a rollback), the hub distributes its
 * topics through the same `publish` a ping uses, so a topic whose bytes did not
 * change sends nothing and none is sent twice. Switches are handled one after the
 * other, each reading the build served at that moment.
 */
import type { Topic } from '../../domain/websub/topics.ts';
import { onBuildSwitch } from '../builds/loaded-build.ts';
import type { Hub } from './hub.ts';

export function distributeOnBuildSwitch(hub: Pick<Hub, 'publish'>, topics: readonly Topic[], log: (line: string) => void): () => void {
  let queue = Promise.resolve();
  const distribute = async (buildId: string) => {
    for (const topic of topics) {
      try {
        const { changed, queued } = await hub.publish(topic.url);
        if (changed) log(`build ${buildId}: ${topic.path} changed, ${queued} deliver${queued === 1 ? 'y' : 'ies'} queued`);
      } catch (error) {
        log(`build ${buildId}: could not distribute ${topic.path}: ${(error as Error).message}`);
      }
    }
  };
  return onBuildSwitch((build) => {
    queue = queue.then(() => distribute(build.id));
  });
}
