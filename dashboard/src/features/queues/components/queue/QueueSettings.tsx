import { useEffect, useState } from 'react';
import type { Queue } from '@miniqueue/sdk';
import { useSession } from '../../../../app/session';
import { formatAge } from '../../../../lib/format';
import { Button } from '../../../../lib/ui/Button';
import { TextField } from '../../../../lib/ui/Field';
import { FormFailure } from '../../../../lib/ui/FormFailure';
import { Notice } from '../../../../lib/ui/States';
import { useSubmit } from '../../../../lib/useSubmit';
import { HeaderFilterField, RequireOrderingKeyField } from '../../../topics/components/QueueRuleFields';
import { DeliveryGateFields } from './DeliveryGateFields';
import { consumersText, rateText } from '../../api/gateSettings';
import { boundsSummary } from '../../api/boundSettings';
import { QueueBoundsFields } from './QueueBoundsFields';
import { ExpiryFields } from './ExpiryFields';
import { deadLettersSummary, expirySummary } from '../../api/expirySettings';
import { prioritiesText } from '../../api/prioritySettings';
import { fairnessText } from '../../api/fairnessSettings';
import { attentionSummary } from '../../api/attentionSettings';
import { AttentionFields } from './AttentionFields';
import { brokerProblems, filterText, formOf, isEdited, saveSettings, settingsChanges, type SettingsForm, type SettingsProblems } from '../../api/settings';

const retentionText = (hours: number | null) => (hours === null ? "the broker's default" : hours === 0 ? 'none (an ack deletes the message)' : `${hours} h`);

/** Tall enough for a saved filter's pretty JSON, within reason. */
const filterRows = (text: string) => Math.min(10, Math.max(3, text.split('\n').length));

/** A queue's settings: read by everyone, changed by admins. */
export function QueueSettings({ queue, onSaved }: { queue: Queue; onSaved: (queue: Queue) => void }) {
  const { admin } = useSession();
  if (!admin) {
    return (
      <dl className="grid gap-3 text-sm sm:grid-cols-3" data-testid="queue-settings">
        <Setting label="Ack timeout">{formatAge(queue.ack_timeout_seconds)}</Setting>
        <Setting label="Max retries">{queue.max_retries}</Setting>
        <Setting label="Acked retention">{retentionText(queue.acked_retention_hours)}</Setting>
        <Setting label="Ordering key">{queue.require_ordering_key ? 'required on every message' : 'optional'}</Setting>
        <Setting label="Header filter" className="sm:col-span-2">
          {queue.filter ? <pre className="overflow-x-auto font-mono text-xs">{filterText(queue.filter)}</pre> : 'none (every message of the topic)'}
        </Setting>
        <Setting label="Consumers">{consumersText(queue)}</Setting>
        <Setting label="Delivery rate">{rateText(queue)}</Setting>
        <Setting label="Priorities" className="sm:col-span-3">
          {prioritiesText(queue)}
        </Setting>
        <Setting label="Fair sharing" className="sm:col-span-3">
          {fairnessText(queue)}
        </Setting>
        <Setting label="Bounds" className="sm:col-span-3">
          {boundsSummary(queue)}
        </Setting>
        <Setting label="Message TTL" className="sm:col-span-3">
          {expirySummary(queue)}
        </Setting>
        <Setting label="Dead letters" className="sm:col-span-3">
          {deadLettersSummary(queue)}
        </Setting>
        <Setting label="Needs attention" className="sm:col-span-3">
          {attentionSummary(queue)}
        </Setting>
      </dl>
    );
  }
  return <SettingsEditor queue={queue} onSaved={onSaved} />;
}

function Setting({ label, className, children }: { label: string; className?: string; children: React.ReactNode }) {
  return (
    <div className={className}>
      <dt className="text-slate-500">{label}</dt>
      <dd className="font-medium text-slate-900">{children}</dd>
    </div>
  );
}

function SettingsEditor({ queue, onSaved }: { queue: Queue; onSaved: (queue: Queue) => void }) {
  const { mq } = useSession();
  const [form, setForm] = useState<SettingsForm>(() => formOf(queue));
  const [problems, setProblems] = useState<SettingsProblems>({});
  const [saved, setSaved] = useState(false);
  useEffect(() => setForm(formOf(queue)), [queue]);
  const changed = isEdited(queue, form);

  const submission = useSubmit(() => saveSettings(mq, queue.name, settingsChanges(queue, form).changes), {
    validate: () => {
      const found = settingsChanges(queue, form).problems;
      setProblems(found);
      return Object.keys(found).length === 0;
    },
    onSuccess: (updated) => {
      setSaved(true);
      onSaved(updated);
    },
    // A bad filter is only known to the broker: its message goes next to the field; nothing was saved.
    onFieldError: (error) => {
      const found = brokerProblems(error);
      setProblems(found);
      return Object.keys(found).length > 0;
    },
  });
  const change = <F extends keyof SettingsForm>(field: F, value: SettingsForm[F]) => {
    setSaved(false);
    setForm({ ...form, [field]: value });
  };
  const edit = (field: 'ackTimeoutSeconds' | 'maxRetries' | 'ackedRetentionHours') => (event: React.ChangeEvent<HTMLInputElement>) =>
    change(field, event.target.value);

  return (
    <form aria-label="Queue settings" onSubmit={submission.onSubmit} noValidate className="space-y-3" data-testid="queue-settings">
      <div className="grid gap-3 sm:grid-cols-3 xl:grid-cols-1">
        <TextField
          label="Ack timeout (seconds)"
          inputMode="numeric"
          value={form.ackTimeoutSeconds}
          onChange={edit('ackTimeoutSeconds')}
          error={problems.ackTimeoutSeconds}
          hint="Lease of a claimed message; new leases only."
        />
        <TextField
          label="Max retries"
          inputMode="numeric"
          value={form.maxRetries}
          onChange={edit('maxRetries')}
          error={problems.maxRetries}
          hint="Redeliveries before it goes dead."
        />
        <TextField
          label="Acked retention (hours)"
          inputMode="numeric"
          value={form.ackedRetentionHours}
          onChange={edit('ackedRetentionHours')}
          error={problems.ackedRetentionHours}
          placeholder="broker default"
          hint="Empty: the broker's default; 0 keeps none."
        />
      </div>
      <HeaderFilterField
        label="Header filter"
        rows={filterRows(form.filter)}
        value={form.filter}
        onChange={(text) => change('filter', text)}
        error={problems.filter}
        hint="JSON: only messages whose headers match reach this queue. Empty removes the filter."
      />
      <RequireOrderingKeyField checked={form.requireOrderingKey} onChange={(checked) => change('requireOrderingKey', checked)} />
      <DeliveryGateFields form={form} error={problems.maxDeliveriesPerSecond} onChange={change} />
      <p className="text-sm text-slate-600" data-testid="queue-priorities">
        <span className="text-slate-500">Priorities:</span> <span className="font-medium text-slate-900">{prioritiesText(queue)}</span>
      </p>
      <p className="text-sm text-slate-600" data-testid="queue-fairness">
        <span className="text-slate-500">Fair sharing:</span> <span className="font-medium text-slate-900">{fairnessText(queue)}</span>
      </p>
      {queue.fairness === 'by_key' && (
        <TextField
          label="Max in flight per key"
          inputMode="numeric"
          value={form.maxInFlightPerKey}
          onChange={(event) => change('maxInFlightPerKey', event.target.value)}
          error={problems.maxInFlightPerKey}
          placeholder="no limit"
          hint="Unacked messages of one group key at once, across every consumer; from the next claim. Empty: no limit."
        />
      )}
      <QueueBoundsFields form={form} problems={problems} onChange={(field, value) => change(field, value as SettingsForm[typeof field])} />
      <ExpiryFields form={form} problems={problems} onChange={(field, value) => change(field, value as SettingsForm[typeof field])} />
      <AttentionFields form={form} problems={problems} onChange={(field, value) => change(field, value as SettingsForm[typeof field])} />
      <FormFailure failure={submission.failure} />
      {saved && !changed && <Notice>Settings saved.</Notice>}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" disabled={!changed || submission.busy} onClick={() => setForm(formOf(queue))}>
          Undo changes
        </Button>
        <Button type="submit" busy={submission.busy} disabled={!changed}>
          Save settings
        </Button>
      </div>
    </form>
  );
}
