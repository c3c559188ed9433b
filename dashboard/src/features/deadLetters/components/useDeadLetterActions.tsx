import type { Message } from '@miniqueue/sdk';
import { useSession } from '../../../app/session';
import { formatCount, shortId } from '../../../lib/format';
import { useConfirm } from '../../../lib/ui/ConfirmDialog';
import { REASON_LABELS } from '../../queues/components/messages/DeathFacts';
import {
  deleteMatching,
  deleteOne,
  deleteSelected,
  describeQuery,
  describeSelection,
  replayMatching,
  replayOne,
  replaySelected,
  type DeadLetterQuery,
} from '../api/deadLetters';

/**
 * Every change the page can make, each behind a confirmation that says what it will touch.
 * `done` gets the outcome in words; the page then reloads.
 */
export function useDeadLetterActions(done: (outcome: string) => void) {
  const { mq } = useSession();
  const confirm = useConfirm();
  const label = (reason: keyof typeof REASON_LABELS) => REASON_LABELS[reason];

  const one = (message: Message, verb: 'replay' | 'delete') =>
    confirm.ask({
      title: verb === 'replay' ? 'Replay this message?' : 'Delete this message?',
      body:
        verb === 'replay'
          ? `Message ${shortId(message.message_id)}… goes back to ${message.queue} as PENDING with its retry count reset, and will be delivered again.`
          : `Message ${shortId(message.message_id)}… of ${message.queue} is deleted for good and never delivered. This cannot be undone.`,
      confirmLabel: verb === 'replay' ? 'Replay' : 'Delete',
      tone: verb === 'replay' ? 'primary' : 'danger',
      action: async () => {
        if (verb === 'replay') await replayOne(mq, message.message_id);
        else await deleteOne(mq, message.message_id);
        done(`${verb === 'replay' ? 'Replayed' : 'Deleted'} message ${shortId(message.message_id)}… ${verb === 'replay' ? 'to' : 'of'} ${message.queue}.`);
      },
    });

  const selection = (ids: string[], verb: 'replay' | 'delete') =>
    confirm.ask({
      title: `${verb === 'replay' ? 'Replay' : 'Delete'} ${formatCount(ids.length)} selected ${ids.length === 1 ? 'message' : 'messages'}?`,
      body: verb === 'replay' ? 'They go back to their queues as PENDING with their retry counts reset.' : 'They are deleted for good. This cannot be undone.',
      confirmLabel: `${verb === 'replay' ? 'Replay' : 'Delete'} ${formatCount(ids.length)}`,
      tone: verb === 'replay' ? 'primary' : 'danger',
      action: async () => {
        const result = verb === 'replay' ? await replaySelected(mq, ids) : await deleteSelected(mq, ids);
        done(describeSelection(verb === 'replay' ? 'Replayed' : 'Deleted', result));
      },
    });

  const matching = (query: DeadLetterQuery, count: string, verb: 'replay' | 'delete') =>
    confirm.ask({
      title: `${verb === 'replay' ? 'Replay' : 'Delete'} all ${describeQuery(query, label)}?`,
      body:
        verb === 'replay'
          ? `${count} go back to their queues as PENDING with their retry counts reset, oldest first.`
          : `${count} are deleted for good. This cannot be undone.`,
      confirmLabel: verb === 'replay' ? 'Replay all' : 'Delete all',
      tone: verb === 'replay' ? 'primary' : 'danger',
      action: async () => {
        if (verb === 'replay') {
          const { replayed } = await replayMatching(mq, query);
          done(`Replayed ${formatCount(replayed)} ${replayed === 1 ? 'message' : 'messages'}${query.queue ? ` to ${query.queue}` : ''}.`);
        } else {
          const { deleted } = await deleteMatching(mq, query);
          done(`Deleted ${formatCount(deleted)} ${deleted === 1 ? 'message' : 'messages'}${query.queue ? ` of ${query.queue}` : ''}.`);
        }
      },
    });

  return { one, selection, matching, dialog: confirm.dialog };
}
