require "json"

=begin
puts "in a block comment"
=end

# puts "in a comment"
HELP = <<~TEXT
  puts "in a heredoc"
TEXT
NOTE = %q{print "in a percent literal"}

$stdout.sync = true
$stderr.puts "diagnostics"
warn "also stderr"
puts "server starting" # expect: ruby-puts-print

def send(message)
  $stdout.puts(JSON.generate(message))
  puts message.to_json
end

def handle(request)
  print "handling #{request['method']}\n" # expect: ruby-puts-print
  $stdout.write("ack\n") # expect: ruby-stdout-object
  logger = Logger.new(STDOUT) # expect: ruby-stdout-object
  request
end
