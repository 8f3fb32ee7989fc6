import { useSearchParams } from 'react-router';
import { Segmented } from '../components/Segmented.tsx';
import { WebhookEndpoints } from '../components/WebhookEndpoints.tsx';
import { RuleForm } from './alerts/RuleForm.tsx';
import { RulesTable } from './alerts/RulesTable.tsx';

const tabs = ['Rules', 'Webhook endpoints'] as const;

export default function Alerts() {
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'webhooks' ? 'Webhook endpoints' : 'Rules';
  return (
    <div className="page">
      <div className="page-title">
        <div>
          <h1>Alerts</h1>
          <p className="muted">
            Rules on prices, volumes and on-chain flows. When one fires, Meridian appends an event to your
            event log and signs a delivery to each webhook endpoint it names.
          </p>
        </div>
        <Segmented
          label="Section"
          options={tabs}
          value={tab}
          onChange={(next) => setParams(next === 'Rules' ? {} : { tab: 'webhooks' })}
        />
      </div>
      {tab === 'Rules' ? (
        <>
          <RuleForm />
          <RulesTable />
        </>
      ) : (
        <WebhookEndpoints />
      )}
    </div>
  );
}
