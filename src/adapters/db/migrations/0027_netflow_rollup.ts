import { type Kysely, sql } from 'kysely';

/**
 * Netflow by the hour, kept by the database itself: statement triggers on `onchain_flows` add what each
 * insert stores and subtract what each delete removes, so the indexer's commits, reorg rewinds, retention and
 * any repair keep it exact without each remembering to. USD sums are NUMERIC so that subtracting a flow
 * leaves exactly what was there before it. Internal moves are left out, as in the series.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table onchain_netflow_hourly (
      chain text not null,
      exchange text not null,
      asset text not null,
      hour bigint not null,
      inflow numeric not null,
      outflow numeric not null,
      inflow_usd numeric not null,
      outflow_usd numeric not null,
      flows bigint not null,
      unpriced bigint not null,
      primary key (exchange, asset, hour, chain)
    )`.execute(db);
  await sql`create index onchain_netflow_hourly_hour_idx on onchain_netflow_hourly (hour)`.execute(db);

  await sql`create function onchain_netflow_hourly_apply() returns trigger language plpgsql as $fn$
    begin
      if tg_op in ('DELETE', 'UPDATE') then
        insert into onchain_netflow_hourly as h
          select chain, exchange, asset, (block_time / 3600000) * 3600000,
            -sum(case when direction = 'deposit' then amount else 0 end),
            -sum(case when direction = 'withdrawal' then amount else 0 end),
            -sum(case when direction = 'deposit' then coalesce(usd_value::numeric, 0) else 0 end),
            -sum(case when direction = 'withdrawal' then coalesce(usd_value::numeric, 0) else 0 end),
            -count(*), -(count(*) - count(usd_value))
          from old_flows where direction <> 'internal' group by 1, 2, 3, 4
        on conflict (exchange, asset, hour, chain) do update set
          inflow = h.inflow + excluded.inflow, outflow = h.outflow + excluded.outflow,
          inflow_usd = h.inflow_usd + excluded.inflow_usd, outflow_usd = h.outflow_usd + excluded.outflow_usd,
          flows = h.flows + excluded.flows, unpriced = h.unpriced + excluded.unpriced;
        delete from onchain_netflow_hourly h using (select distinct chain, exchange, asset,
            (block_time / 3600000) * 3600000 as hour from old_flows) o
          where h.flows = 0 and h.chain = o.chain and h.exchange = o.exchange and h.asset = o.asset
            and h.hour = o.hour;
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        insert into onchain_netflow_hourly as h
          select chain, exchange, asset, (block_time / 3600000) * 3600000,
            sum(case when direction = 'deposit' then amount else 0 end),
            sum(case when direction = 'withdrawal' then amount else 0 end),
            sum(case when direction = 'deposit' then coalesce(usd_value::numeric, 0) else 0 end),
            sum(case when direction = 'withdrawal' then coalesce(usd_value::numeric, 0) else 0 end),
            count(*), count(*) - count(usd_value)
          from new_flows where direction <> 'internal' group by 1, 2, 3, 4
        on conflict (exchange, asset, hour, chain) do update set
          inflow = h.inflow + excluded.inflow, outflow = h.outflow + excluded.outflow,
          inflow_usd = h.inflow_usd + excluded.inflow_usd, outflow_usd = h.outflow_usd + excluded.outflow_usd,
          flows = h.flows + excluded.flows, unpriced = h.unpriced + excluded.unpriced;
      end if;
      return null;
    end
    $fn$`.execute(db);
  await sql`create trigger onchain_netflow_hourly_insert after insert on onchain_flows
    referencing new table as new_flows for each statement execute function onchain_netflow_hourly_apply()`.execute(
    db,
  );
  await sql`create trigger onchain_netflow_hourly_delete after delete on onchain_flows
    referencing old table as old_flows for each statement execute function onchain_netflow_hourly_apply()`.execute(
    db,
  );
  await sql`create trigger onchain_netflow_hourly_update after update on onchain_flows
    referencing old table as old_flows new table as new_flows
    for each statement execute function onchain_netflow_hourly_apply()`.execute(db);

  // What is already stored.
  await sql`insert into onchain_netflow_hourly
    select chain, exchange, asset, (block_time / 3600000) * 3600000,
      sum(case when direction = 'deposit' then amount else 0 end),
      sum(case when direction = 'withdrawal' then amount else 0 end),
      sum(case when direction = 'deposit' then coalesce(usd_value::numeric, 0) else 0 end),
      sum(case when direction = 'withdrawal' then coalesce(usd_value::numeric, 0) else 0 end),
      count(*), count(*) - count(usd_value)
    from onchain_flows where direction <> 'internal' group by 1, 2, 3, 4`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger onchain_netflow_hourly_update on onchain_flows`.execute(db);
  await sql`drop trigger onchain_netflow_hourly_delete on onchain_flows`.execute(db);
  await sql`drop trigger onchain_netflow_hourly_insert on onchain_flows`.execute(db);
  await sql`drop function onchain_netflow_hourly_apply()`.execute(db);
  await sql`drop table onchain_netflow_hourly`.execute(db);
}
