#!/usr/bin/perl
# js_templates.pl FILE.js...: the template literals of JavaScript sources,
# which xgettext (0.21) does not list, one a line as "file:line<TAB>text",
# each ${...} written %s (nested templates inside it listed on their own).
# For tests/i18n/lint_strings.sh --js. Comments, '...' and "..." strings,
# regular expression literals and the message of a new Error(`...`) (a
# developer's, never shown: the page says nothing from an Error) are
# skipped.
use strict;
use warnings;

for my $file (@ARGV) {
	open my $fh, '<:raw', $file or die "js_templates.pl: $file: $!\n";
	local $/;
	my $src = <$fh>;
	close $fh;
	my ($i, $line, $n) = (0, 1, length $src);
	my @out;
	my $prev = '';    # the last significant character, to tell a regex from a division
	my $template;     # reads a template literal at $i (after its `), returns its text
	$template = sub {
		my $start = $line;
		my $text = '';
		while ($i < $n) {
			my $c = substr $src, $i, 1;
			if ($c eq '\\') { $text .= substr $src, $i, 2; $i += 2; next; }
			if ($c eq '`') { $i++; last; }
			if ($c eq '$' && substr($src, $i + 1, 1) eq '{') {
				$i += 2;
				$text .= '%s';
				my $depth = 1;
				while ($i < $n && $depth) {
					my $d = substr $src, $i, 1;
					if ($d eq '`') { $i++; my ($l, $t) = $template->(); push @out, "$file:$l\t$t"; next; }
					if ($d eq "'" || $d eq '"') {
						$i++;
						while ($i < $n && substr($src, $i, 1) ne $d) { $i += substr($src, $i, 1) eq '\\' ? 2 : 1; }
						$i++;
						next;
					}
					$depth++ if $d eq '{';
					$depth-- if $d eq '}';
					$line++ if $d eq "\n";
					$i++;
				}
				next;
			}
			$line++ if $c eq "\n";
			$text .= $c;
			$i++;
		}
		return ($start, $text);
	};
	while ($i < $n) {
		my $c = substr $src, $i, 1;
		my $c2 = substr $src, $i, 2;
		if ($c2 eq '//') { $i++ while $i < $n && substr($src, $i, 1) ne "\n"; next; }
		if ($c2 eq '/*') {
			my $e = index $src, '*/', $i + 2;
			$e = $n - 2 if $e < 0;
			$line += () = substr($src, $i, $e + 2 - $i) =~ /\n/g;
			$i = $e + 2;
			next;
		}
		if ($c eq "'" || $c eq '"') {
			$i++;
			while ($i < $n && substr($src, $i, 1) ne $c) { $i += substr($src, $i, 1) eq '\\' ? 2 : 1; }
			$i++;
			$prev = 'a';
			next;
		}
		if ($c eq '/' && $prev =~ /^[(,=:\[!&|?{};]?$/ ) {    # a regular expression literal
			$i++;
			my $class = 0;
			while ($i < $n) {
				my $d = substr $src, $i, 1;
				if ($d eq '\\') { $i += 2; next; }
				$class = 1 if $d eq '[';
				$class = 0 if $d eq ']';
				$i++;
				last if $d eq '/' && !$class;
			}
			$prev = 'a';
			next;
		}
		if ($c eq '`') {
			# new Error(`...`): a developer's message, never the page's
			my $err = $i >= 6 && substr($src, $i - 6, 6) eq 'Error(';
			$i++;
			my ($l, $t) = $template->();
			push @out, "$file:$l\t$t" unless $err;
			$prev = 'a';
			next;
		}
		$line++ if $c eq "\n";
		$prev = $c unless $c =~ /\s/;
		$i++;
	}
	print "$_\n" for @out;
}
