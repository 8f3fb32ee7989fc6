import { useSearchParams } from 'react-router';
import { Segmented } from '../components/Segmented.tsx';
import { AlertChannels } from '../components/AlertChannels.tsx';
import { WebhookEndpoints } from '../components/WebhookEndpoints.tsx';
import { RuleForm } from './alerts/RuleForm.tsx';
import { RulesTable } from './alerts/RulesTable.tsx';

const tabs = ['Rules', 'Channels', 'Webhook endpoints'] as const;
const tabParam = { Rules: undefined, Channels: 'channels', 'Webhook endpoints': 'webhooks' } as const;

export default function Alerts() {
  const [params, setParams] = useSearchParams();
  const tab = tabs.find((t) => tabParam[t] === params.get('tab')) ?? 'Rules';
  return (
    <div className="page">
      <div className="page-title">
        <div>
          <h1>Alerts</h1>
          <p className="muted">
            Rules on prices, volumes and on-chain flows. When one fires, Meridian appends an event to your
            event log, messages each channel it names (email, Telegram, Discord, Slack) and signs a delivery
            to each webhook endpoint it names.
          </p>
        </div>
        <Segmented
          label="Section"
          options={tabs}
          value={tab}
          onChange={(next) => setParams(tabParam[next] ? { tab: tabParam[next] } : {})}
        />
      </div>
      {tab === 'Rules' ? (
        <>
          <RuleForm />
          <RulesTable />
        </>
      ) : tab === 'Channels' ? (
        <AlertChannels />
      ) : (
        <WebhookEndpoints />
      )}
    </div>
  );
}
