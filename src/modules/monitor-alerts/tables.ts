/** A monitor's own alerting: reminders while down, a snooze, and where the outage stands. */
export interface MonitorAlertsTable {
  monitor_id: number
  /** Remind every this many minutes while down (null: no reminders). */
  remind_every_min: number | null
  /** At most this many reminders per outage. */
  remind_max: number
  /** Nothing is sent for the monitor before this instant (null: not snoozed). */
  snoozed_until: number | null
  /** When the current outage began (null: not down). */
  outage_since: number | null
  /** The last alert or reminder of the current outage (whether or not a snooze kept it quiet). */
  last_alert_at: number | null
  reminders_sent: number
}

/** The channels a monitor's events go to (besides channels that take every monitor of the owner). */
export interface MonitorAlertChannelsTable {
  monitor_id: number
  channel_id: number
}
