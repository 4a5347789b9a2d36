# locks.pl: Perl's ithreads locks contended across threads, as the apps
# session's perl_locks runs it (scenarios/apps/session.tsv): a shared
# variable lock()ed by 2 threads, held while they start (until each has
# said it is about to lock it) so that their first locks wait; and
# cond_wait/cond_signal passing a turn between two threads. One line, each
# part printed as it ends: on a crash the output says how far it came.
use strict;
use warnings;
use threads;
use threads::shared;

my ($WORKERS, $ROUNDS, $HANDOFFS) = (2, 1000, 20);
$| = 1;

my $taken :shared = 0;
my $ready :shared = 0;
my @workers;
{
	lock($taken);
	for (1 .. $WORKERS) {
		push @workers, threads->create(sub {
			{ lock($ready); $ready++; cond_signal($ready); }
			for (1 .. $ROUNDS) { lock($taken); $taken++; }
		});
	}
	lock($ready);
	cond_wait($ready) until $ready == $WORKERS;
}
$_->join for @workers;
print "lock $taken of ", $WORKERS * $ROUNDS, ", ";

my $turn :shared = 0;
my $passed :shared = 0;
my $other = threads->create(sub {
	for (1 .. $HANDOFFS) {
		lock($turn);
		cond_wait($turn) until $turn == 1;
		$turn = 0;
		$passed++;
		cond_signal($turn);
	}
});
for (1 .. $HANDOFFS) {
	lock($turn);
	$turn = 1;
	cond_signal($turn);
	cond_wait($turn) until $turn == 0;
}
$other->join;
print "cond_wait $passed of $HANDOFFS\n";
