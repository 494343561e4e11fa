#!/usr/bin/perl
# html2js.pl FILE.html: the texts of an HTML page as JavaScript, line for
# line, for xgettext and the lint (docs/i18n.md). An element marked
# data-t="key" becomes t("key", "its text"); an aria-label marked
# data-t-aria-label="key" becomes t("key", "the label"); every other text
# between tags, and every unmarked aria-label, title, alt or placeholder,
# becomes a bare string literal, which tests/i18n/lint_strings.sh names
# when it holds words. Comments, <script>, <style> and <title> (the
# program's name) are left out. Output line N holds what HTML line N had,
# so the lint's locations are the page's.
use strict;
use warnings;

sub lit {
	my $s = shift;
	$s =~ s/&lt;/</g;
	$s =~ s/&gt;/>/g;
	$s =~ s/&quot;/"/g;
	$s =~ s/&#39;/'/g;
	$s =~ s/&amp;/&/g;
	$s =~ s/\\/\\\\/g;
	$s =~ s/"/\\"/g;
	return "\"$s\"";
}

sub attr {
	my ($attrs, $name) = @_;
	return $attrs =~ /(?:^|\s)\Q$name\E="([^"]*)"/ ? $1 : undef;
}

my $skip = 0;    # inside a comment, <script>, <style> or <title>
binmode STDIN, ':raw';
binmode STDOUT, ':raw';
while (my $line = <>) {
	my @out;
	my $rest = $line;
	while (length $rest) {
		if ($skip) {
			if ($rest =~ s/^.*?(-->|<\/script>|<\/style>|<\/title>)//s) {
				$skip = 0;
				next;
			}
			last;
		}
		if ($rest =~ s/^<![A-Za-z][^>]*>//) {
			next;
		}
		if ($rest =~ s/^<!--//) {
			$skip = 1;
			next;
		}
		if ($rest =~ s/^<(\/?)([A-Za-z][A-Za-z0-9]*)([^>]*)>([^<]*)//s) {
			my ($close, $tag, $attrs, $text) = ($1, lc $2, $3, $4);
			if (!$close && ($tag eq 'script' || $tag eq 'style' || $tag eq 'title')) {
				$skip = 1 unless $rest =~ s/^.*?<\/$tag>//s;
				next;
			}
			my $key = $close ? undef : attr($attrs, 'data-t');
			(my $t = $text) =~ s/^\s+|\s+$//g;
			$t =~ s/\s+/ /g;
			if (defined $key) {
				push @out, "t(" . lit($key) . ", " . lit($t) . ");";
			} elsif ($t ne '') {
				push @out, lit($t) . ";";
			}
			next if $close;
			for my $a ('aria-label', 'title', 'alt', 'placeholder') {
				my $v = attr($attrs, $a);
				next unless defined $v;
				my $k = attr($attrs, "data-t-$a");
				push @out, defined $k ? "t(" . lit($k) . ", " . lit($v) . ");" : lit($v) . ";";
			}
			next;
		}
		if ($rest =~ s/^([^<]+)//s) {
			(my $t = $1) =~ s/^\s+|\s+$//g;
			push @out, lit($t) . ";" if $t ne '';
			next;
		}
		# a tag split over lines: not written in our pages
		die "html2js.pl: line $.: a tag over several lines\n" if $rest =~ /^</;
	}
	print join(' ', @out), "\n";
}
