package store

import (
	"context"
	"slices"

	"github.com/skiff-ai/skiff/internal/schedule"
)

// Schedules returns the scheduled runs, in the order they were made.
func (s *Store) Schedules(ctx context.Context) ([]schedule.Schedule, error) {
	var list []schedule.Schedule
	_, err := s.get(ctx, "schedules", &list)
	return list, err
}

// SaveSchedule stores sc (checked first), replacing the one with its id.
func (s *Store) SaveSchedule(ctx context.Context, sc *schedule.Schedule) error {
	if err := sc.Check(); err != nil {
		return fieldError("schedule", sayScheduleBad, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	list, err := s.Schedules(ctx)
	if err != nil {
		return err
	}
	if i := slices.IndexFunc(list, func(o schedule.Schedule) bool { return o.ID == sc.ID }); i >= 0 {
		list[i] = *sc
	} else if len(list) >= schedule.Max {
		return fieldError("schedule", sayScheduleMax, schedule.Max)
	} else {
		list = append(list, *sc)
	}
	return s.set(ctx, map[string]any{"schedules": list})
}

// UpdateSchedules changes the stored schedules in one step: f changes any of them in place and
// reports whether it changed one, and only then is the list written (a run that finishes and a
// user who pauses do not write over each other). It returns the list as it is now.
func (s *Store) UpdateSchedules(ctx context.Context, f func([]schedule.Schedule) bool) ([]schedule.Schedule, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	list, err := s.Schedules(ctx)
	if err != nil || !f(list) {
		return list, err
	}
	return list, s.set(ctx, map[string]any{"schedules": list})
}

// DeleteSchedule removes schedule id.
func (s *Store) DeleteSchedule(ctx context.Context, id string) error {
	_, n, err := s.DeleteSchedules(ctx, func(o schedule.Schedule) bool { return o.ID == id })
	if err == nil && n == 0 {
		return ErrNoSchedule
	}
	return err
}

// DeleteSchedules removes the schedules match picks, in one write (none when it picks none),
// and returns the list left and how many went.
func (s *Store) DeleteSchedules(ctx context.Context, match func(schedule.Schedule) bool) ([]schedule.Schedule, int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	list, err := s.Schedules(ctx)
	if err != nil {
		return nil, 0, err
	}
	n := len(list)
	list = slices.DeleteFunc(list, match)
	if len(list) == n {
		return list, 0, nil
	}
	return list, n - len(list), s.set(ctx, map[string]any{"schedules": list})
}
