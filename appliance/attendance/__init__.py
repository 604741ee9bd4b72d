"""Attendance: agents' work sessions and statuses, the organization's rules, work modes, overtime,
holidays and leaves, and the day, period and payroll views computed from them."""
