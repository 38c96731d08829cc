/*
 * progress.c - the progress of `kso enum` on stderr: on a terminal a bar
 * redrawn in place (states done, states/s, ETA); otherwise one plain line
 * every 10 seconds, so logs stay readable.  Reachable mode, whose state
 * count is unknown in advance, shows the search instead: states expanded,
 * the frontier, states/s and scenarios done.
 */
#include "run.h"

#include <stdio.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

double enum_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double enum_cpu_now(void)
{
	struct rusage ru;
	if (getrusage(RUSAGE_SELF, &ru) != 0)
		return 0;
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

void enum_progress_init(struct enum_progress *p, uint64_t total, bool quiet)
{
	p->tty = isatty(STDERR_FILENO);
	p->quiet = quiet;
	p->start = p->last = enum_now();
	p->total = total;
	p->width = 30;
}

static void eta_text(double secs, char *buf, size_t len)
{
	if (secs < 0 || secs > 1e7) {
		snprintf(buf, len, "?");
		return;
	}
	long s = (long)secs;
	snprintf(buf, len, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
}

void enum_progress_update(struct enum_progress *p, uint64_t done,
			  uint64_t classes, bool force)
{
	if (p->quiet)
		return;
	double now = enum_now();
	double every = p->tty ? 0.25 : 10.0;
	if (!force && now - p->last < every)
		return;
	p->last = now;
	double el = now - p->start;
	double rate = el > 0 ? (double)done / el : 0;
	double frac = p->total ? (double)done / (double)p->total : 0;
	if (frac > 1)
		frac = 1;
	char eta[32];
	eta_text(rate > 0 ? (double)(p->total - (done < p->total ? done : p->total)) / rate : -1,
		 eta, sizeof eta);
	if (!p->tty) {
		fprintf(stderr, "kso enum: %llu/%llu states (%.1f%%), %llu classes, "
			"%.0f states/s, ETA %s\n", (unsigned long long)done,
			(unsigned long long)p->total, 100 * frac,
			(unsigned long long)classes, rate, eta);
		return;
	}
	int fill = (int)(frac * p->width);
	char bar[64];
	for (int i = 0; i < p->width; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[p->width] = '\0';
	fprintf(stderr, "\r[%s] %5.1f%% %llu/%llu states %.0f/s ETA %s  ", bar,
		100 * frac, (unsigned long long)done, (unsigned long long)p->total,
		rate, eta);
	fflush(stderr);
}

void enum_progress_reach(struct enum_progress *p, uint64_t expanded,
			 uint64_t frontier, uint64_t items_done,
			 uint64_t items_total, bool force)
{
	if (p->quiet)
		return;
	double now = enum_now();
	if (!force && now - p->last < (p->tty ? 0.25 : 10.0))
		return;
	p->last = now;
	double el = now - p->start;
	double rate = el > 0 ? (double)expanded / el : 0;
	if (!p->tty) {
		fprintf(stderr, "kso enum: reachable: %llu states visited, frontier "
			"%llu, %.0f states/s, %llu/%llu scenarios\n",
			(unsigned long long)expanded, (unsigned long long)frontier,
			rate, (unsigned long long)items_done,
			(unsigned long long)items_total);
		return;
	}
	fprintf(stderr, "\r[reachable] %llu states visited, frontier %llu, "
		"%.0f/s, scenarios %llu/%llu  ", (unsigned long long)expanded,
		(unsigned long long)frontier, rate, (unsigned long long)items_done,
		(unsigned long long)items_total);
	fflush(stderr);
}

void enum_progress_end(struct enum_progress *p)
{
	if (!p->quiet && p->tty)
		fputc('\n', stderr);
}
